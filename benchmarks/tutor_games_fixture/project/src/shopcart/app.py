from shopcart import cart
from shopcart import payments
from shopcart.config_loader import parse_config


def create_app(path="config/settings.ini"):
    settings = parse_config(path)
    return {"settings": settings, "cart": cart.Cart()}


if __name__ == "__main__":
    create_app()
