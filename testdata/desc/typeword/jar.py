class Jar:
    def add_pickle(self, pickle):
        pass

    def eat_pickle(self):
        pass
