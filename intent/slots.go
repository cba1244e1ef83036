package intent

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

var numberWords = map[string]int{"zero": 0, "one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5,
	"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
	"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100, "half": -1}

var unitSeconds = map[string]int{"s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
	"m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
	"h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "day": 86400, "days": 86400}

// ParseSlot turns a slot's words into a value of its type: a string
// (words joined by spaces), an int (integer; duration in seconds), a
// float64 (number), a bool, or one of an enum's values. It returns an
// error saying what was expected when the words are not such a value.
func ParseSlot(s Slot, words []string) (any, error) {
	text := strings.Join(words, " ")
	switch s.Type {
	case TypeString:
		if text == "" {
			return nil, fmt.Errorf("%s is empty", s.Name)
		}
		return text, nil
	case TypeInteger:
		if n, ok := parseInt(words); ok {
			return n, nil
		}
		return nil, fmt.Errorf("%s: %q is not a whole number", s.Name, text)
	case TypeNumber:
		if f, err := strconv.ParseFloat(text, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f, nil
		}
		if n, ok := parseInt(words); ok {
			return float64(n), nil
		}
		return nil, fmt.Errorf("%s: %q is not a number", s.Name, text)
	case TypeBoolean:
		switch text {
		case "yes", "on", "true", "enable", "enabled":
			return true, nil
		case "no", "off", "false", "disable", "disabled":
			return false, nil
		}
		return nil, fmt.Errorf("%s: %q is not yes or no", s.Name, text)
	case TypeDuration:
		if sec, ok := parseDuration(words); ok {
			return sec, nil
		}
		return nil, fmt.Errorf("%s: %q is not a duration (say e.g. \"5 minutes\")", s.Name, text)
	case TypeEnum:
		if slices.Contains(s.Enum, text) {
			return text, nil
		}
		return nil, fmt.Errorf("%s: %q is not one of %s", s.Name, text, strings.Join(s.Enum, ", "))
	}
	return nil, fmt.Errorf("%s: unknown slot type %q", s.Name, s.Type)
}

// parseInt reads digits ("12") or a small number in words ("twenty five").
func parseInt(words []string) (int, bool) {
	if len(words) == 1 {
		if n, err := strconv.Atoi(words[0]); err == nil {
			return n, true
		}
	}
	n := 0
	for _, w := range words {
		v, ok := numberWords[w]
		if !ok || v < 0 {
			return 0, false
		}
		if v == 100 && n > 0 {
			n *= 100
		} else {
			n += v
		}
	}
	return n, len(words) > 0
}

// parseDuration reads "5 minutes", "1 hour 30 minutes", "90s", "half an
// hour", "a minute" into whole seconds.
func parseDuration(words []string) (int, bool) {
	total, amount, have := 0.0, 0.0, false
	for i := 0; i < len(words); i++ {
		w := words[i]
		if u, ok := unitSeconds[w]; ok {
			if !have {
				return 0, false
			}
			total += amount * float64(u)
			amount, have = 0, false
			continue
		}
		if w == "and" {
			continue
		}
		// "half an hour", "two and a half hours": the article belongs to half.
		if (w == "a" || w == "an") && (i > 0 && words[i-1] == "half" || i+1 < len(words) && words[i+1] == "half") {
			continue
		}
		if w == "half" {
			if have {
				amount += 0.5
			} else {
				amount, have = 0.5, true
			}
			continue
		}
		// "90s", "5m", "2h"
		if j := strings.IndexFunc(w, func(r rune) bool { return r < '0' || r > '9' && r != '.' }); j > 0 {
			if u, ok := unitSeconds[w[j:]]; ok {
				if f, err := strconv.ParseFloat(w[:j], 64); err == nil {
					total += f * float64(u)
					continue
				}
			}
		}
		if f, err := strconv.ParseFloat(w, 64); err == nil && f >= 0 && !math.IsInf(f, 0) {
			amount, have = amount+f, true
			continue
		}
		if v, ok := numberWords[w]; ok && v >= 0 {
			amount, have = amount+float64(v), true
			continue
		}
		return 0, false
	}
	if have || total < 1 || total > 366*86400 {
		return 0, false
	}
	return int(math.Round(total)), true
}
