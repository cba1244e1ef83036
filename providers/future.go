package providers

import (
	"context"
	"fmt"
	"sync"
)

// Future is the pending result of work started with [Go] (or
// [EmbedAsync], [ChatClient.CompleteAsync]). It lets a host start embedding
// or chat work, do something else, then wait for it or cancel it.
type Future[T any] struct {
	done   chan struct{}
	cancel context.CancelFunc
	once   sync.Once
	val    T
	err    error
}

// Go runs fn in a new goroutine with a context derived from ctx that
// [Future.Cancel] cancels. A panic in fn is recovered and returned as an
// error by Wait.
func Go[T any](ctx context.Context, fn func(ctx context.Context) (T, error)) *Future[T] {
	ctx, cancel := context.WithCancel(ctx)
	f := &Future[T]{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(f.done)
		defer cancel()
		defer func() {
			if r := recover(); r != nil {
				f.err = fmt.Errorf("providers: future function panicked: %v", r)
			}
		}()
		f.val, f.err = fn(ctx)
	}()
	return f
}

// Wait blocks until the work finishes or ctx is done. ctx bounds only the
// waiting: when it ends first, Wait returns a KindCanceled/KindTimeout
// *Error and the work goes on (call Cancel to stop it). After the work has
// finished, Wait returns its result, any number of times.
func (f *Future[T]) Wait(ctx context.Context) (T, error) {
	select {
	case <-f.done:
		return f.val, f.err
	default:
	}
	select {
	case <-f.done:
		return f.val, f.err
	case <-ctx.Done():
		var zero T
		e := contextError(ctx.Err(), "future")
		e.Message = "wait ended before the work finished: " + e.Message
		return zero, e
	}
}

// Cancel cancels the work's context. The work then ends with a KindCanceled
// error (if it honours its context, as everything in this package does).
// Wait still returns whatever the work returned. Safe to call repeatedly.
func (f *Future[T]) Cancel() { f.once.Do(f.cancel) }

// Done is closed when the work has finished.
func (f *Future[T]) Done() <-chan struct{} { return f.done }
