package providers

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestFutureResult(t *testing.T) {
	f := Go(context.Background(), func(ctx context.Context) (int, error) { return 42, nil })
	for i := 0; i < 2; i++ {
		v, err := f.Wait(context.Background())
		if v != 42 || err != nil {
			t.Fatalf("Wait = %v, %v", v, err)
		}
	}
	<-f.Done()
}

func TestFutureWaitBoundedByItsContext(t *testing.T) {
	release := make(chan struct{})
	f := Go(context.Background(), func(ctx context.Context) (string, error) {
		<-release
		return "late", nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := f.Wait(ctx)
	if !IsKind(err, KindTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait = %v, want timeout", err)
	}
	close(release) // the work was not canceled and still completes
	v, err := f.Wait(context.Background())
	if v != "late" || err != nil {
		t.Fatalf("Wait after release = %q, %v", v, err)
	}
}

func TestFutureCancelStopsEmbedding(t *testing.T) {
	started := make(chan struct{}, 1)
	fk := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		started <- struct{}{}
		<-r.Context().Done()
	})
	e := newTestEmbedder(t, fk, nil)
	fut := EmbedAsync(context.Background(), e, []string{"a", "b"})
	<-started
	fut.Cancel()
	fut.Cancel() // idempotent
	res, err := fut.Wait(context.Background())
	if res != nil || !IsKind(err, KindCanceled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v, %v; want canceled", res, err)
	}
	if n := len(fk.requests()); n != 1 {
		t.Errorf("requests = %d; a canceled call must not retry", n)
	}
}

func TestFutureChat(t *testing.T) {
	fk := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		writeJSON(w, 200, completionJSON(`{"role":"assistant","content":"async"}`, "stop"))
	})
	c := newTestChat(t, fk, nil)
	fut := c.CompleteAsync(context.Background(), ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}})
	res, err := fut.Wait(context.Background())
	if err != nil || res.Content != "async" {
		t.Fatalf("Wait = %+v, %v", res, err)
	}
}

func TestFuturePanicBecomesError(t *testing.T) {
	f := Go(context.Background(), func(ctx context.Context) (int, error) { panic("boom") })
	if _, err := f.Wait(context.Background()); err == nil {
		t.Fatal("want error from panic")
	}
}
