package main

import (
	"fmt"
	"strconv"
	"strings"
)

// The times of day the alarm takes, as people say them: "7", "07:30",
// "7 am", "7:15 p.m.", "seven", "seven o'clock", "seven thirty", "half
// past six", "a quarter to seven", "noon", "midnight", each maybe followed
// by "in the morning", "in the afternoon", "in the evening", "at night",
// "tonight" or "tomorrow" (and a part of tomorrow). home.pl declares the
// same language as the time slot's pattern (TestTheAlarmTakesWhatItsSlotDeclares),
// so the router refuses a time the alarm could not set — "today", "soon" —
// before the handler runs.
var (
	hourWords   = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
	minuteWords = map[string]int{"fifteen": 15, "thirty": 30, "forty five": 45, "forty-five": 45}
	pastWords   = map[string]int{"five": 5, "ten": 10, "quarter": 15, "twenty": 20, "twenty five": 25, "twenty-five": 25, "half": 30}
	dayParts    = []string{"in the morning", "in the afternoon", "in the evening", "at night", "tonight",
		"tomorrow morning", "tomorrow afternoon", "tomorrow evening", "tomorrow night", "tomorrow"}
)

// parseClock reads a time of day into hour (0..23) and minute; ok is false
// for anything else.
func parseClock(text string) (hour, minute int, ok bool) {
	s := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	later := false // a part of the day after noon
	for _, p := range dayParts {
		if rest, found := strings.CutSuffix(s, " "+p); found {
			s = rest
			later = p == "in the afternoon" || p == "in the evening" || p == "at night" || p == "tonight" ||
				p == "tomorrow afternoon" || p == "tomorrow evening" || p == "tomorrow night"
			break
		}
	}
	evening := func(h int) int {
		if later && h >= 1 && h < 12 {
			return h + 12
		}
		return h
	}
	switch s {
	case "noon", "midday":
		return 12, 0, true
	case "midnight":
		return 0, 0, true
	}
	// "half past six", "a quarter to seven"
	if f := strings.Fields(strings.TrimPrefix(s, "a ")); len(f) >= 3 && (f[len(f)-2] == "past" || f[len(f)-2] == "to") {
		m, ok1 := pastWords[strings.Join(f[:len(f)-2], " ")]
		h, ok2 := hourOf(f[len(f)-1])
		if !ok1 || !ok2 || strings.HasPrefix(s, "a ") && f[0] != "quarter" {
			return 0, 0, false
		}
		if f[len(f)-2] == "to" {
			h, m = (h+23)%24, 60-m
		}
		return evening(h), m, true
	}
	// "seven", "seven o'clock", "seven pm", "seven thirty"
	if w, rest, _ := strings.Cut(s, " "); hourWords[w] > 0 {
		h := hourWords[w]
		switch {
		case rest == "" || rest == "o'clock":
			return evening(h), 0, true
		case minuteWords[rest] > 0:
			return evening(h), minuteWords[rest], true
		}
		if pm, ok := meridiem(rest); ok {
			return h%12 + pm, 0, true
		}
		return 0, 0, false
	}
	// "7", "07:30", "7 o'clock", "7am", "7:15 p.m."
	num, rest := s, ""
	if i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != ':' }); i >= 0 {
		num, rest = s[:i], strings.TrimPrefix(s[i:], " ")
	}
	h, m, ok := digits(num)
	if !ok {
		return 0, 0, false
	}
	if rest == "" || rest == "o'clock" {
		return evening(h), m, true
	}
	if pm, ok := meridiem(rest); ok && h >= 1 && h <= 12 {
		return h%12 + pm, m, true
	}
	return 0, 0, false
}

// hourOf reads an hour of "half past H": 0..23 in digits or a word.
func hourOf(w string) (int, bool) {
	if h, ok := hourWords[w]; ok {
		return h, true
	}
	h, m, ok := digits(w)
	return h, ok && m == 0 && !strings.Contains(w, ":")
}

// digits reads "7", "07", "7:15", "19:30": one or two digits of an hour
// (0..23), then maybe a colon and two digits of a minute.
func digits(s string) (hour, minute int, ok bool) {
	hs, ms, colon := strings.Cut(s, ":")
	if len(hs) < 1 || len(hs) > 2 || colon && len(ms) != 2 || strings.ContainsFunc(hs+ms, func(r rune) bool { return r < '0' || r > '9' }) {
		return 0, 0, false
	}
	h, err := strconv.Atoi(hs)
	if err != nil || h < 0 || h > 23 {
		return 0, 0, false
	}
	if colon {
		if minute, err = strconv.Atoi(ms); err != nil || minute < 0 || minute > 59 {
			return 0, 0, false
		}
	}
	return h, minute, true
}

// meridiem reads am (0) or pm (12) as written: am, pm, a.m., p.m.
func meridiem(w string) (int, bool) {
	switch w {
	case "am", "a.m", "a.m.":
		return 0, true
	case "pm", "p.m", "p.m.":
		return 12, true
	}
	return 0, false
}

// clockText writes hour and minute as 07:30.
func clockText(hour, minute int) string { return fmt.Sprintf("%02d:%02d", hour, minute) }
