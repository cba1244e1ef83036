package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/internal/textclip"
)

// checkJSON checks, without recursion and before anything decodes it, that
// s is one well-formed UTF-8 JSON object with nothing after it, that no
// object at any depth repeats a key (keys equal up to Unicode simple case
// folding count as the same key: encoding/json matches struct fields that
// way, so {"path":"a","Path":"../x"} would otherwise reach a handler as a
// path the schema never saw), and, when maxDepth > 0, that objects and
// arrays nest at most maxDepth deep. The error text quotes at most a short
// clipped key.
func checkJSON(s string, maxDepth int) error {
	if !utf8.ValidString(s) {
		return errors.New("not valid UTF-8")
	}
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token in this object is a key
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var stack []*frame
	started := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if !started {
				return errors.New("empty")
			}
			if len(stack) > 0 {
				return errors.New("unexpected end of JSON")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("malformed JSON: %s", textclip.Clean(err.Error(), 80))
		}
		if started && len(stack) == 0 {
			return errors.New("data after the top-level value")
		}
		if !started {
			started = true
			if tok != json.Delim('{') {
				return errors.New("not a JSON object")
			}
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if k, ok := tok.(string); ok {
				f := foldKey(k)
				if top.keys[f] {
					return fmt.Errorf("duplicate key %q", textclip.Clean(k, 40))
				}
				top.keys[f] = true
				top.key = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if top != nil && top.object {
				top.key = true
			}
			if maxDepth > 0 && len(stack) >= maxDepth {
				return fmt.Errorf("nested deeper than %d levels", maxDepth)
			}
			fr := &frame{object: tok == json.Delim('{'), key: true}
			if fr.object {
				fr.keys = map[string]bool{}
			}
			stack = append(stack, fr)
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		default: // a scalar value
			if top != nil && top.object {
				top.key = true
			}
		}
	}
}

// foldKey maps every rune of k to the smallest rune of its simple case
// folding orbit, so foldKey(a) == foldKey(b) exactly when strings.EqualFold
// (a, b) — the equivalence encoding/json uses to match keys to fields.
func foldKey(k string) string {
	return strings.Map(func(r rune) rune {
		min := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < min {
				min = f
			}
		}
		return min
	}, k)
}

// checkShadowedKeys refuses an argument key that the schema does not
// declare but that equals a declared property up to case (PATH, Path for
// "path"), at any depth the schema's "properties" and "items" describe:
// encoding/json would decode it into the declared field of a handler's
// struct although the schema never checked its value.
func checkShadowedKeys(doc any, schema any, at string) error {
	s, _ := schema.(map[string]any)
	if s == nil {
		return nil
	}
	switch d := doc.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		byFold := make(map[string]string, len(props))
		for p := range props {
			byFold[foldKey(p)] = p
		}
		for k, v := range d {
			if sub, ok := props[k]; ok {
				if err := checkShadowedKeys(v, sub, at+"/"+k); err != nil {
					return err
				}
				continue
			}
			if p, ok := byFold[foldKey(k)]; ok {
				where := "at " + at
				if at == "" {
					where = "at the top level"
				}
				return fmt.Errorf("key %q %s differs only in case from the declared %q", textclip.Clean(k, 64), where, p)
			}
		}
	case []any:
		for i, v := range d {
			if err := checkShadowedKeys(v, s["items"], fmt.Sprintf("%s/%d", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}
