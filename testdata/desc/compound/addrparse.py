class Scanner:
    def getaddrlist(self):
        result = []
        while self.pos < len(self.field):
            result.append(self.advance())
        return result

    def getquote(self):
        return self.advance()


def get_addr_spec(value):
    return value


def parse_list(value):
    return [value]


class AddressList:
    pass
