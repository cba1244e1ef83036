package main

import (
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm"
)

// TestSearchIndexWorkShowsABarOnlyWhenLongAndOnATerminal: a search index
// build or update that has taken over a second shows a progress bar of its
// files on a terminal; a quick one shows nothing, and nothing shows when
// stderr is not a terminal.
func TestSearchIndexWorkShowsABarOnlyWhenLongAndOnATerminal(t *testing.T) {
	type event struct {
		at   time.Duration // since the process start
		e    rlm.Progress
		want string // in the output so far ("" nothing new)
	}
	cases := []struct {
		name   string
		tty    bool
		events []event
	}{
		{"a long update on a terminal", true, []event{
			{0, rlm.Progress{Phase: "check", Done: 10, Total: 10}, ""},
			{200 * time.Millisecond, rlm.Progress{Phase: "update", Done: 0, Total: 40}, ""},
			{800 * time.Millisecond, rlm.Progress{Phase: "update", Done: 5, Total: 40}, ""},
			{1500 * time.Millisecond, rlm.Progress{Phase: "update", Done: 10, Total: 40}, "updating the search index (changed files)"},
		}},
		{"a long build on a terminal", true, []event{
			{100 * time.Millisecond, rlm.Progress{Phase: "build", Done: 0, Total: 900}, ""},
			{1300 * time.Millisecond, rlm.Progress{Phase: "build", Done: 300, Total: 900}, "300/900"},
		}},
		{"a quick update on a terminal", true, []event{
			{3 * time.Second, rlm.Progress{Phase: "update", Done: 0, Total: 2}, ""},
			{3*time.Second + 50*time.Millisecond, rlm.Progress{Phase: "update", Done: 2, Total: 2}, ""},
			{3*time.Second + 60*time.Millisecond, rlm.Progress{Phase: "done", Done: 2, Total: 2}, ""},
		}},
		{"a long update, not a terminal", false, []event{
			{0, rlm.Progress{Phase: "update", Done: 0, Total: 40}, ""},
			{5 * time.Second, rlm.Progress{Phase: "update", Done: 20, Total: 40}, ""},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			start := time.Now()
			clock := start
			p := &progress{w: &out, tty: c.tty, now: func() time.Time { return clock }, start: start}
			for _, ev := range c.events {
				clock = start.Add(ev.at)
				before := out.Len()
				p.report(ev.e)
				got := out.String()[before:]
				if ev.want == "" && got != "" {
					t.Errorf("at %v, %+v printed %q, want nothing", ev.at, ev.e, got)
				}
				if ev.want != "" && !strings.Contains(got, ev.want) {
					t.Errorf("at %v, %+v printed %q, want %q in it", ev.at, ev.e, got, ev.want)
				}
			}
		})
	}
}
