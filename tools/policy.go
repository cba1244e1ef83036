package tools

import (
	"fmt"
	"slices"
)

// Policy is what one session may run: the capabilities it grants and the
// side-effect classes it allows. The zero Policy grants no capability and
// allows the side effects none and read.
type Policy struct {
	Capabilities []string     // granted capability names
	SideEffects  []SideEffect // allowed classes; nil or empty = none and read only
	// MaxArgBytes bounds a call's argument JSON; ≤ 0 = DefaultMaxArgBytes.
	MaxArgBytes int
	// MaxResultBytes bounds a result's JSON; ≤ 0 = DefaultMaxResultBytes.
	// A longer result is refused with too_large, never truncated silently.
	MaxResultBytes int
}

// Allows returns nil if p lets t run: every capability t needs is granted
// and t's side-effect class is allowed. Otherwise it returns a *CallError
// of kind capability_denied (checked first) or side_effect_denied.
func (p Policy) Allows(t Tool) error {
	for _, c := range t.Capabilities {
		if !slices.Contains(p.Capabilities, c) {
			return &CallError{Kind: KindCapabilityDenied, Tool: t.Name,
				Message: fmt.Sprintf("tool %s needs capability %q, which this session does not grant", t.Name, c)}
		}
	}
	if !slices.Contains(p.sideEffects(), t.SideEffect) {
		return &CallError{Kind: KindSideEffectDenied, Tool: t.Name,
			Message: fmt.Sprintf("tool %s has side effect %q, which this session does not allow", t.Name, t.SideEffect)}
	}
	return nil
}

func (p Policy) sideEffects() []SideEffect {
	if len(p.SideEffects) == 0 {
		return []SideEffect{SideEffectNone, SideEffectRead}
	}
	return p.SideEffects
}

func (p Policy) maxArgBytes() int {
	if p.MaxArgBytes <= 0 {
		return DefaultMaxArgBytes
	}
	return p.MaxArgBytes
}

func (p Policy) maxResultBytes() int {
	if p.MaxResultBytes <= 0 {
		return DefaultMaxResultBytes
	}
	return p.MaxResultBytes
}
