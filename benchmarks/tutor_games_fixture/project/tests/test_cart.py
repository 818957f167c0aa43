from shopcart.cart import Cart


def test_total():
    cart = Cart()
    cart.add_item("pen", 10)
    assert cart.total() == 12
