package intent

import (
	"context"
	"sync"

	"github.com/rlm-dev/rlm/tools"
)

// Session routes the turns of one conversation asynchronously: starting a
// turn cancels the one before it (its model call is drained, its result
// never applied). Safe for concurrent use.
type Session struct {
	r      *Router
	mu     sync.Mutex
	latest string
	cancel context.CancelFunc
}

// NewSession starts a conversation on r.
func (r *Router) NewSession() *Session { return &Session{r: r} }

// Pending is a turn being routed.
type Pending struct {
	s    *Session
	turn string
	done chan struct{}
	res  *Result
	err  error
}

// Start routes t in its own goroutine, after cancelling the session's
// previous turn.
func (s *Session) Start(ctx context.Context, t Turn) *Pending {
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel()
	}
	ctx, cancel := context.WithCancel(ctx)
	s.latest, s.cancel = t.ID, cancel
	s.mu.Unlock()
	p := &Pending{s: s, turn: t.ID, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.res, p.err = s.r.Route(ctx, t)
	}()
	return p
}

// current reports whether turn is the session's latest.
func (s *Session) current(turn string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latest == turn
}

// Wait returns the turn's result, or ErrStaleTurn if a newer turn started
// meanwhile (whatever the old turn produced is discarded).
func (p *Pending) Wait(ctx context.Context) (*Result, error) {
	select {
	case <-p.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if !p.s.current(p.turn) {
		return nil, ErrStaleTurn
	}
	return p.res, p.err
}

// Apply executes an accepted result if its turn is still the session's
// latest; a stale result is never applied (ErrStaleTurn).
func (s *Session) Apply(ctx context.Context, res *Result) (tools.Outcome, error) {
	if res == nil || !s.current(res.Turn) {
		return tools.Outcome{}, ErrStaleTurn
	}
	return s.r.Execute(ctx, res)
}
