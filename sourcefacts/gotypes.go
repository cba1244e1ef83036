package sourcefacts

import "strings"

// Reading Go types as declarations write them (Symbol.Type), for Scopes.

// goResult is result k (from 0) of Go result types as a declaration
// writes them (Symbol.Type): "*T", "(T, error)", "(n int, err error)",
// "(a, b T)"; "" when there is none.
func goResult(text string, k int) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "(") {
		if k == 0 {
			return t
		}
		return ""
	}
	parts := splitTopLevel(strings.TrimSuffix(strings.TrimPrefix(t, "("), ")"))
	named := false
	for _, p := range parts {
		if f := strings.Fields(p); len(f) >= 2 && isIdentifier(f[0]) && f[0] != "chan" && f[0] != "func" && f[0] != "map" {
			named = true
		}
	}
	types := make([]string, len(parts))
	next := ""
	for i := len(parts) - 1; i >= 0; i-- {
		p := strings.TrimSpace(parts[i])
		if named {
			if f := strings.Fields(p); len(f) >= 2 {
				next = strings.TrimSpace(p[len(f[0]):])
			}
			types[i] = next // a name alone shares the type after it
			continue
		}
		types[i] = p
	}
	if k < 0 || k >= len(types) {
		return ""
	}
	return types[k]
}

// splitTopLevel splits s at the commas outside brackets and parentheses.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// goTypeText reads a Go type written as text (Symbol.Type) as its
// qualifier and name: "*http.Request" is ("http", "Request"), "List[T]"
// ("", "List"); false for a type with no methods to resolve (a slice,
// map, channel, function, interface or struct written in place).
func goTypeText(t string) (qual, name string, ok bool) {
	t = strings.TrimLeft(strings.TrimSpace(t), "*")
	if t == "" || strings.ContainsAny(t[:1], "[(<") {
		return "", "", false
	}
	if i := strings.IndexByte(t, '['); i > 0 {
		t = t[:i]
	}
	switch t {
	case "map", "chan", "func", "interface", "struct":
		return "", "", false
	}
	return splitTypeName(t, ".")
}

// goElem is the element type of a Go slice, array, map (its values) or
// channel type written as text: "[]*T" is "*T", "map[string]T" "T",
// "chan<- T" "T"; "" for any other type.
func goElem(t string) string {
	t = strings.TrimSpace(t)
	switch {
	case strings.HasPrefix(t, "[]"):
		return strings.TrimSpace(t[2:])
	case strings.HasPrefix(t, "["), strings.HasPrefix(t, "map["):
		depth := 0
		for i, r := range t {
			switch r {
			case '[':
				depth++
			case ']':
				if depth--; depth == 0 {
					return strings.TrimSpace(t[i+1:])
				}
			}
		}
	case strings.HasPrefix(t, "<-chan "), strings.HasPrefix(t, "chan<- "):
		return strings.TrimSpace(t[7:])
	case strings.HasPrefix(t, "chan "):
		return strings.TrimSpace(t[5:])
	}
	return ""
}
