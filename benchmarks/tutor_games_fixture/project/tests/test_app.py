from shopcart.app import create_app

EXPECTED_PORT = 8000


def test_port():
    app = create_app()
    assert int(app["settings"]["server"]["port"]) == EXPECTED_PORT
