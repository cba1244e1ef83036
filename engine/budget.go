package engine

import (
	"context"
	"sync"
	"sync/atomic"
)

// budgetCtx is a context.Context that counts inferences. ichiban/prolog's
// trampoline (Promise.Force) polls ctx.Done() once per step, and every
// nested Force (findall/3, \+/1, catch/3, ...) polls the same context, so the
// number of Done calls is a faithful count of resolution steps. When the
// count passes the limit the context reports itself done with
// ErrInferenceBudget, and stops counting: the polls of the nested Forces
// unwinding after that are not steps, so a query over budget reports
// limit+1 inferences.
type budgetCtx struct {
	context.Context
	limit int64
	n     atomic.Int64
	once  sync.Once
	done  chan struct{}
	over  atomic.Bool
}

func withBudget(parent context.Context, limit int64) *budgetCtx {
	return &budgetCtx{Context: parent, limit: limit, done: make(chan struct{})}
}

func (c *budgetCtx) Done() <-chan struct{} {
	if c.over.Load() {
		return c.done
	}
	if c.n.Add(1) > c.limit {
		c.once.Do(func() {
			c.over.Store(true)
			close(c.done)
		})
		return c.done
	}
	return c.Context.Done()
}

func (c *budgetCtx) Err() error {
	if c.over.Load() {
		return ErrInferenceBudget
	}
	return c.Context.Err()
}

// used reports the number of inference steps counted so far.
func (c *budgetCtx) used() int64 { return c.n.Load() }
