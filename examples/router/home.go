package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// home is a pretend home: the handlers of the 20 intents change its state
// and say what a real assistant would do. Nothing leaves the process: no
// call is placed, no network is used.
type home struct {
	mu         sync.Mutex
	now        func() time.Time
	timerEnds  time.Time
	alarms     []string
	lights     map[string]int // room → brightness percent, 0 off
	thermostat float64
	playing    string
	paused     bool
	track      int
	volume     int
	notes      []string
	shopping   []string
	reminders  []string
	calls      []string
}

var rooms = []string{"living room", "kitchen", "bedroom", "bathroom", "hall"}

func newHome(now func() time.Time) *home {
	h := &home{now: now, lights: map[string]int{}, thermostat: 20, volume: 40}
	for _, r := range rooms {
		h.lights[r] = 0
	}
	return h
}

// state is what the assistant tells the router's repair about the home
// (rlm.Turn.State): host-selected, short.
func (h *home) state() map[string]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := map[string]string{"thermostat": fmt.Sprintf("%g degrees", h.thermostat), "volume": fmt.Sprint(h.volume)}
	if left := h.timerEnds.Sub(h.now()); left > 0 {
		s["timer"] = left.Round(time.Second).String() + " left"
	}
	if h.playing != "" {
		s["music"] = h.playing
		if h.paused {
			s["music"] += " (paused)"
		}
	}
	var on []string
	for _, r := range rooms {
		if h.lights[r] > 0 {
			on = append(on, r)
		}
	}
	if len(on) > 0 {
		s["lights on"] = strings.Join(on, ", ")
	}
	return s
}

// do runs an accepted intent with its validated arguments and says what
// happened. The handlers check what the slot schema cannot (a room that
// exists, a percentage within 0..100).
func (h *home) do(intent string, args map[string]any) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	str := func(k string) string { s, _ := args[k].(string); return s }
	switch intent {
	case "timer_start":
		d := time.Duration(num(args["duration"])) * time.Second
		h.timerEnds = h.now().Add(d)
		return fmt.Sprintf("Timer set for %s.", d)
	case "timer_cancel":
		if !h.timerEnds.After(h.now()) {
			return "There is no timer running."
		}
		h.timerEnds = time.Time{}
		return "Timer cancelled."
	case "timer_status":
		if left := h.timerEnds.Sub(h.now()); left > 0 {
			return fmt.Sprintf("%s left on the timer.", left.Round(time.Second))
		}
		return "There is no timer running."
	case "alarm_set":
		hh, mm, ok := parseClock(str("time"))
		if !ok {
			return fmt.Sprintf("The alarm takes a time of day, not %q.", str("time"))
		}
		h.alarms = append(h.alarms, clockText(hh, mm))
		return fmt.Sprintf("Alarm set for %s.", clockText(hh, mm))
	case "lights_on", "lights_off", "lights_dim":
		return h.setLights(intent, str("room"), args)
	case "thermostat_set":
		d := num(args["degrees"])
		if d < 5 || d > 30 {
			return fmt.Sprintf("The thermostat takes 5 to 30 degrees, not %g.", d)
		}
		h.thermostat = d
		return fmt.Sprintf("Thermostat set to %g degrees.", d)
	case "music_play":
		h.playing, h.paused, h.track = str("what"), false, 1
		return fmt.Sprintf("Playing %s.", h.playing)
	case "music_pause":
		if h.playing == "" {
			return "Nothing is playing."
		}
		h.paused = true
		return "Music paused."
	case "music_skip":
		if h.playing == "" {
			return "Nothing is playing."
		}
		h.track++
		return fmt.Sprintf("Skipped to track %d of %s.", h.track, h.playing)
	case "volume_set":
		v := int(num(args["level"]))
		if v < 0 || v > 100 {
			return fmt.Sprintf("The volume goes from 0 to 100, not %d.", v)
		}
		h.volume = v
		return fmt.Sprintf("Volume %d.", v)
	case "note_add":
		h.notes = append(h.notes, str("text"))
		return "Noted."
	case "note_read":
		if len(h.notes) == 0 {
			return "You have no notes."
		}
		return "Your notes: " + strings.Join(h.notes, "; ") + "."
	case "shopping_add":
		h.shopping = append(h.shopping, str("item"))
		n := "items"
		if len(h.shopping) == 1 {
			n = "item"
		}
		return fmt.Sprintf("Added %s to the shopping list (%d %s).", str("item"), len(h.shopping), n)
	case "reminder_add":
		d := time.Duration(num(args["after"])) * time.Second
		h.reminders = append(h.reminders, str("what"))
		return fmt.Sprintf("I'll remind you to %s in %s.", str("what"), d)
	case "weather_get":
		place, day := str("place"), str("day")
		if place == "" {
			place = "here"
		} else {
			place = "in " + place
		}
		if day == "" {
			day = "today"
		}
		return fmt.Sprintf("(simulated) The weather %s, %s: 18 degrees and light rain.", place, day)
	case "calendar_next":
		return "(simulated) Your next event is the dentist, tomorrow at 9:30."
	case "call_contact":
		h.calls = append(h.calls, str("who"))
		return fmt.Sprintf("(simulated) Calling %s.", str("who"))
	case "search_web":
		return fmt.Sprintf("(simulated) I would search the web for %q.", str("query"))
	}
	return "I have no handler for " + intent + "."
}

func (h *home) setLights(intent, room string, args map[string]any) string {
	targets := rooms
	if room != "" {
		if !slices.Contains(rooms, room) {
			return fmt.Sprintf("There is no room called %q here (rooms: %s).", room, strings.Join(rooms, ", "))
		}
		targets = []string{room}
	}
	level, what := 100, "on"
	switch intent {
	case "lights_off":
		level, what = 0, "off"
	case "lights_dim":
		level = int(num(args["level"]))
		if level < 0 || level > 100 {
			return fmt.Sprintf("Brightness goes from 0 to 100 percent, not %d.", level)
		}
		what = fmt.Sprintf("at %d%%", level)
	}
	for _, r := range targets {
		h.lights[r] = level
	}
	where := "everywhere"
	if room != "" {
		where = "in the " + room
	}
	return fmt.Sprintf("Lights %s %s.", what, where)
}

// describe lists the home's state, for the :state command.
func (h *home) describe() string {
	s := h.state()
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s: %s\n", k, s[k])
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Fprintf(&b, "  notes: %d, shopping list: %s, reminders: %d, alarms: %s\n", len(h.notes), strings.Join(h.shopping, ", "), len(h.reminders), strings.Join(h.alarms, ", "))
	return b.String()
}

// num reads a numeric argument: an int or float64 from the router, or a
// json.Number.
func num(v any) float64 {
	switch n := v.(type) {
	case int:
		return float64(n)
	case float64:
		return n
	case json.Number:
		f, _ := n.Float64()
		return f
	}
	return 0
}
