package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// TestExecuteIsSafeForConcurrentUse runs valid and refused calls from many
// goroutines while tools are being registered (run with -race).
func TestExecuteIsSafeForConcurrentUse(t *testing.T) {
	rec := &recorder{}
	r := NewRegistry()
	mustRegister(t, r, Tool{Name: "read", SideEffect: SideEffectRead, Schema: pathSchema, Handler: rec.handler()})
	e := &Executor{Registry: r}
	const workers, calls = 8, 50
	var wg sync.WaitGroup
	errs := make(chan error, workers*calls)
	for w := range workers {
		wg.Go(func() {
			for i := range calls {
				good := i%2 == 0
				args := fmt.Sprintf(`{"path":"w%d/%d"}`, w, i)
				if !good {
					args = fmt.Sprintf(`{"path":%d}`, i)
				}
				out := e.Execute(context.Background(), Call{ID: fmt.Sprint(w, i), Name: "read", Arguments: args}, []string{"read"})
				if out.OK != good || out.CallID != fmt.Sprint(w, i) {
					errs <- fmt.Errorf("worker %d call %d: OK=%v id=%q %s", w, i, out.OK, out.CallID, out.Content)
				}
				if good {
					var v struct{ Echo json.RawMessage }
					if err := json.Unmarshal([]byte(out.Content), &v); err != nil || string(v.Echo) != args {
						errs <- fmt.Errorf("worker %d call %d: result %s for %s", w, i, out.Content, args)
					}
				}
			}
		})
		wg.Go(func() {
			name := fmt.Sprintf("late_%d", w)
			if err := r.Register(Tool{Name: name, SideEffect: SideEffectNone, Handler: rec.handler()}); err != nil {
				errs <- err
			}
			_ = r.Tools()
			if out := e.Execute(context.Background(), Call{Name: name}, []string{name}); !out.OK {
				errs <- fmt.Errorf("%s: %s", name, out.Content)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if want := workers*calls/2 + workers; rec.count() != want {
		t.Errorf("handlers ran %d times, want %d", rec.count(), want)
	}
}
