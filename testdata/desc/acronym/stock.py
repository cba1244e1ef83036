# A stock room, without docstrings (after Python http's cookiejar, whose
# is_HDN is described as "a host domain name"): the code abbreviates what
# a description spells out.


def is_SKU(text):
    return len(text) == 8 and text.isalnum()


def unit_label(text):
    return "unit " + text


def stock_count(shelf):
    return len(shelf)


def unit_price(text, prices):
    return prices.get(text, 0)


def stock_units(shelf, text):
    return [unit for unit in shelf if unit == text]



def reorder_point_level(shelf):
    return min(len(shelf), 4)


def restock_below(shelf, rpl):
    return len(shelf) < rpl
