TAX_RATE = 0.2  # 20 % value added tax


def price_with_tax(price):
    return round(price * (1 + TAX_RATE), 2)
