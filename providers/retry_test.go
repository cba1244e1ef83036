package providers

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRetryPolicy(t *testing.T) {
	type result struct {
		OK         bool
		Kind       Kind
		Status     int
		Attempts   int
		Requests   int
		RetryAfter time.Duration
	}
	cases := []struct {
		name       string
		statuses   []int             // per call; past the end: 200
		header     map[string]string // set on error answers
		policy     RetryPolicy
		minElapsed time.Duration
		want       result
	}{
		{
			name:       "429 with Retry-After seconds is honoured",
			statuses:   []int{429},
			header:     map[string]string{"Retry-After": "1"},
			minElapsed: 900 * time.Millisecond,
			want:       result{OK: true, Requests: 2},
		},
		{
			name:       "503 with Retry-After-Ms is honoured",
			statuses:   []int{503, 503},
			header:     map[string]string{"Retry-After-Ms": "60"},
			minElapsed: 110 * time.Millisecond,
			want:       result{OK: true, Requests: 3},
		},
		{
			name:     "Retry-After above the bound is not retried",
			statuses: []int{429},
			header:   map[string]string{"Retry-After": "120"},
			want:     result{Kind: KindHTTP, Status: 429, Attempts: 1, Requests: 1, RetryAfter: 120 * time.Second},
		},
		{
			name:     "attempts are bounded",
			statuses: []int{503, 503, 503, 503},
			want:     result{Kind: KindHTTP, Status: 503, Attempts: 3, Requests: 3},
		},
		{
			name:     "MaxAttempts 1 disables retries",
			statuses: []int{503},
			policy:   RetryPolicy{MaxAttempts: 1},
			want:     result{Kind: KindHTTP, Status: 503, Attempts: 1, Requests: 1},
		},
		{
			name:     "400 is not retried",
			statuses: []int{400},
			want:     result{Kind: KindHTTP, Status: 400, Attempts: 1, Requests: 1},
		},
		{
			name:     "401 is not retried",
			statuses: []int{401},
			want:     result{Kind: KindHTTP, Status: 401, Attempts: 1, Requests: 1},
		},
		{
			name:     "500 then success",
			statuses: []int{500},
			want:     result{OK: true, Requests: 2},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
				if call < len(tc.statuses) {
					for k, v := range tc.header {
						w.Header().Set(k, v)
					}
					writeJSON(w, tc.statuses[call], `{"error":{"message":"try later","type":"rate_limit"}}`)
					return
				}
				writeJSON(w, 200, embeddingsJSON(inputs(body), 2, nil))
			})
			logger, logs := newTestLogger()
			e := newTestEmbedder(t, f, func(c *EmbeddingConfig) {
				if tc.policy.MaxAttempts != 0 {
					c.Retry.MaxAttempts = tc.policy.MaxAttempts
				}
				c.Logger = logger
			})
			start := time.Now()
			_, err := e.Embed(context.Background(), []string{"a"})
			elapsed := time.Since(start)
			got := result{OK: err == nil, Requests: len(f.requests())}
			var pe *Error
			if errors.As(err, &pe) {
				got.Kind, got.Status, got.Attempts, got.RetryAfter = pe.Kind, pe.Status, pe.Attempts, pe.RetryAfter
			} else if err != nil {
				t.Fatalf("err %v is not *Error", err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s\nerr: %v", d, err)
			}
			if elapsed < tc.minElapsed {
				t.Errorf("elapsed %v < %v: Retry-After not honoured", elapsed, tc.minElapsed)
			}
			if tc.want.Requests > 1 && !strings.Contains(logs.String(), "provider call retry") {
				t.Errorf("no retry logged:\n%s", logs.String())
			}
		})
	}
}

func TestCancelDuringRetryWait(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		w.Header().Set("Retry-After", "2")
		writeJSON(w, 429, `{"error":{"message":"slow down"}}`)
	})
	e := newTestEmbedder(t, f, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.Embed(ctx, []string{"a"})
	if !IsKind(err, KindTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want timeout", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("waited %v despite the deadline", el)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("requests = %d", n)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name string
		h    http.Header
		want time.Duration
	}{
		{"absent", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"3"}}, 3 * time.Second},
		{"fractional seconds", http.Header{"Retry-After": {"0.25"}}, 250 * time.Millisecond},
		{"milliseconds win", http.Header{"Retry-After": {"3"}, "Retry-After-Ms": {"20"}}, 20 * time.Millisecond},
		{"http date", http.Header{"Retry-After": {now.Add(7 * time.Second).Format(http.TimeFormat)}}, 7 * time.Second},
		{"past date", http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{"negative", http.Header{"Retry-After": {"-5"}}, 0},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0},
	}
	for _, tc := range cases {
		if got := parseRetryAfter(tc.h, now); got != tc.want {
			t.Errorf("%s: got %v want %v", tc.name, got, tc.want)
		}
	}
}

func TestBackoffBounded(t *testing.T) {
	p := RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}.withDefaults()
	for retry := 0; retry < 70; retry++ {
		d := p.backoff(retry)
		if d <= 0 || d > time.Second {
			t.Fatalf("backoff(%d) = %v", retry, d)
		}
	}
	if d := p.backoff(0); d > 100*time.Millisecond || d < 75*time.Millisecond {
		t.Errorf("backoff(0) = %v", d)
	}
}
