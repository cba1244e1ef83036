# A label parser without docstrings (after Python email's
# _header_value_parser as rlm eval's description_nodoc task strips it):
# each parser's docstring opened with the grammar rule it parses,
# "labeltext = 1*(any non-LABEL_ENDS character)", whose right-hand side
# names other definitions.

LABEL_ENDS = set(' \t()<>@,;:"/[]?=')
EXTENDED_LABEL_ENDS = LABEL_ENDS - set('%')


def _non_label_end(value):
    # any character that is not one of the label ends
    for i, c in enumerate(value):
        if c in LABEL_ENDS:
            return value[:i]
    return value


def get_labeltext(value):
    text = _non_label_end(value)
    if not text:
        raise ValueError("expected labeltext but found '{}'".format(value))
    return text, value[len(text):]


def get_label(value):
    if value and value[0] in EXTENDED_LABEL_ENDS:
        raise ValueError("expected a label character")
    return get_labeltext(value)
