"""Shopcart: a small shopping-cart service."""
