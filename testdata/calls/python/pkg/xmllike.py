def loads(s):
    """Parse XML text: the same name as jsonlike.loads."""
    return s
