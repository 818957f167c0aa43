from shopcart.pricing import price_with_tax


class Cart:
    def __init__(self):
        self.items = []

    def add_item(self, name, price):
        self.items.append((name, price))

    def total(self):
        return sum(price_with_tax(price) for _, price in self.items)
