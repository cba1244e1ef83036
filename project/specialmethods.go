package project

import "github.com/rlm-dev/rlm/sourcefacts"

// pythonSpecialMethodWords are the words the Python language reference
// describes each special method by ("Data model", §3.3 Special method
// names, https://docs.python.org/3/reference/datamodel.html#special-method-names):
// a method's name says nothing a description shares ("__len__" for
// "Return the total number of headers"), but its meaning is the
// language's, not the tree's. The words are English as the reference
// writes them; BM25 reads them as it reads any text of the definition.
var pythonSpecialMethodWords = map[string][]string{
	"__init__":     {"create", "initialize", "construct", "constructor", "instance"},
	"__new__":      {"create", "construct", "new", "instance"},
	"__del__":      {"finalize", "destructor", "destroy"},
	"__repr__":     {"representation", "repr", "string", "printable"},
	"__str__":      {"string", "str", "text", "printable"},
	"__bytes__":    {"bytes", "byte", "string"},
	"__format__":   {"format", "formatted", "string"},
	"__lt__":       {"compare", "comparison", "less", "order"},
	"__le__":       {"compare", "comparison", "less", "equal", "order"},
	"__gt__":       {"compare", "comparison", "greater", "order"},
	"__ge__":       {"compare", "comparison", "greater", "equal", "order"},
	"__eq__":       {"compare", "comparison", "equal", "equality"},
	"__ne__":       {"compare", "comparison", "equal", "equality", "different"},
	"__hash__":     {"hash", "hashable"},
	"__bool__":     {"true", "false", "truth", "boolean"},
	"__getattr__":  {"attribute", "get", "lookup", "access"},
	"__setattr__":  {"attribute", "set", "assign", "assignment"},
	"__delattr__":  {"attribute", "delete", "remove", "deletion"},
	"__dir__":      {"attributes", "names", "list"},
	"__call__":     {"call", "invoke", "called"},
	"__len__":      {"length", "number", "count", "size"},
	"__getitem__":  {"item", "get", "index", "key", "value", "lookup"},
	"__setitem__":  {"item", "set", "assign", "store", "key", "value"},
	"__delitem__":  {"item", "delete", "remove", "key"},
	"__missing__":  {"missing", "key"},
	"__iter__":     {"iterator", "iterate", "iteration"},
	"__next__":     {"next", "item", "iterator"},
	"__reversed__": {"reverse", "reversed", "iterator"},
	"__contains__": {"contains", "membership", "member"},
	"__enter__":    {"context", "manager", "enter"},
	"__exit__":     {"context", "manager", "exit"},
}

// specialMethodWords are the language's words for s's name (see
// pythonSpecialMethodWords; a module's __getattr__ and __dir__, PEP 562,
// mean what a class's do), nil for a definition that is no special
// method and for languages without such a table.
func specialMethodWords(lang string, s sourcefacts.Symbol) []string {
	if lang != sourcefacts.LangPython {
		return nil
	}
	return pythonSpecialMethodWords[s.Name]
}
