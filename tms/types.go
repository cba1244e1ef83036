package tms

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Label is a conclusion's label: IN while its justification holds, OUT
// once a premise fails or an antecedent is OUT.
type Label string

// Labels.
const (
	In  Label = "in"
	Out Label = "out"
)

// Kind is what a conclusion is. Closed vocabulary: the rules
// (rules/tms/label.pl) decide per kind what happens when it goes OUT.
type Kind string

// Kinds of conclusions.
const (
	KindAnswer    Kind = "answer"    // a cached search answer: withdrawn when OUT
	KindRetrieval Kind = "retrieval" // a session's retrieval: re-derived when OUT
	KindContext   Kind = "context"   // a context unit of a session: re-derived when OUT
	KindResolved  Kind = "resolved"  // a name resolved to another: re-derived when OUT
	KindPlan      Kind = "plan"      // a cached plan: withdrawn when OUT
)

// Kinds lists the kinds of conclusions.
func Kinds() []Kind { return []Kind{KindAnswer, KindRetrieval, KindContext, KindResolved, KindPlan} }

// Action is what the owner of a conclusion does about a label change, as
// the rules decide it. Closed vocabulary.
type Action string

// Actions.
const (
	ActionKeep     Action = "keep"     // the label did not change
	ActionWithdraw Action = "withdraw" // OUT: no longer served; recomputed only when asked again
	ActionRederive Action = "rederive" // OUT: its owner re-derives it now
	ActionRestore  Action = "restore"  // IN again without recomputation
)

// PremiseKind is the kind of a premise. Closed vocabulary.
type PremiseKind string

// Premise kinds.
const (
	// PremiseSource: the bytes of a source file (Path) hash to Hash (the
	// content hash string sourcefacts.ContentHash.String gives);
	// Generation is the file generation when recorded, provenance only:
	// the hash decides.
	PremiseSource PremiseKind = "source"
	// PremiseRule: the rule with ID Value is registered.
	PremiseRule PremiseKind = "rule"
	// PremiseEmbedder: the embedder's identity (model/dimensions) is Value.
	PremiseEmbedder PremiseKind = "embedder"
	// PremiseRulesVersion: the rules' version hash is Value.
	PremiseRulesVersion PremiseKind = "rules_version"
	// PremiseElsewhere: no file other than the conclusion's own sources
	// changed since it was derived in a way that mentions one of Terms
	// (lowercased words and names); with AnyChange, any change at all
	// counts (conclusions from embedding similarity). Env is the
	// fingerprint of the snapshot it was derived in (set by Justify).
	PremiseElsewhere PremiseKind = "elsewhere"
)

// Premise is one thing a conclusion rests on. Which fields matter depends
// on Kind (see the PremiseKind constants).
type Premise struct {
	Kind       PremiseKind `json:"kind"`
	Path       string      `json:"path,omitempty"`
	Hash       string      `json:"hash,omitempty"`
	Generation int64       `json:"generation,omitempty"`
	Value      string      `json:"value,omitempty"`
	Terms      []string    `json:"terms,omitempty"`
	AnyChange  bool        `json:"any_change,omitempty"`
	Env        string      `json:"env,omitempty"`
}

// Source is a PremiseSource premise.
func Source(path, hash string, generation int64) Premise {
	return Premise{Kind: PremiseSource, Path: path, Hash: hash, Generation: generation}
}

// Rule is a PremiseRule premise.
func Rule(id string) Premise { return Premise{Kind: PremiseRule, Value: id} }

// EmbedderIs is a PremiseEmbedder premise.
func EmbedderIs(identity string) Premise { return Premise{Kind: PremiseEmbedder, Value: identity} }

// RulesAre is a PremiseRulesVersion premise.
func RulesAre(version string) Premise { return Premise{Kind: PremiseRulesVersion, Value: version} }

// Elsewhere is a PremiseElsewhere premise over terms; no terms means any
// change elsewhere counts (AnyChange).
func Elsewhere(terms ...string) Premise {
	if len(terms) == 0 {
		return Premise{Kind: PremiseElsewhere, AnyChange: true}
	}
	return Premise{Kind: PremiseElsewhere, Terms: slices.Clone(terms)}
}

// String renders the premise for people, e.g. `source(a.go, 1a2b…:42)`.
func (p Premise) String() string {
	switch p.Kind {
	case PremiseSource:
		return fmt.Sprintf("source(%s, %s, generation %d)", p.Path, p.Hash, p.Generation)
	case PremiseElsewhere:
		if p.AnyChange {
			return "elsewhere(any change)"
		}
		return "elsewhere(" + strings.Join(p.Terms, " ") + ")"
	}
	return fmt.Sprintf("%s(%s)", p.Kind, p.Value)
}

// Conclusion is what a caller asks the TMS to keep: Key names the
// question it answers (several conclusions, one per justification, may
// share a key), Premises and Antecedents (IDs of other conclusions) its
// justification, Value an opaque payload the owner reads back (e.g. a
// cached answer as JSON), Title a line for people.
type Conclusion struct {
	Key         string
	Kind        Kind
	Title       string
	Premises    []Premise
	Antecedents []string
	Value       []byte
}

// Because is one rule decision: the rule's ID and its premises, each
// written as a term.
type Because struct {
	Rule     string   `json:"rule"`
	Premises []string `json:"premises"`
}

func (b Because) String() string {
	return b.Rule + "(" + strings.Join(b.Premises, ", ") + ")"
}

// Record is a kept conclusion with its current label and the rules'
// decisions about it.
type Record struct {
	ID          string    `json:"id"`
	Key         string    `json:"key"`
	Kind        Kind      `json:"kind"`
	Title       string    `json:"title,omitempty"`
	Label       Label     `json:"label"`
	Because     Because   `json:"because"`        // the rule that gave the label (for OUT: the premise that failed)
	Action      Action    `json:"action"`         // what the owner does about the last label change
	ActionWhy   Because   `json:"action_because"` // the rule that chose Action
	Premises    []Premise `json:"premises"`
	Antecedents []string  `json:"antecedents,omitempty"`
	Value       []byte    `json:"-"`
	Derivations int       `json:"derivations"` // times Justify recorded it
}

// Change is a label change Sync made (or WhatIf would make).
type Change struct {
	ID        string  `json:"id"`
	Key       string  `json:"key"`
	Kind      Kind    `json:"kind"`
	Title     string  `json:"title,omitempty"`
	From      Label   `json:"from"`
	To        Label   `json:"to"`
	Because   Because `json:"because"`
	Action    Action  `json:"action"`
	ActionWhy Because `json:"action_because"`
}

// FileVersion is a file as a snapshot sees it: its content hash string
// and file generation.
type FileVersion struct {
	Hash       string
	Generation int64
}

// Errors callers can match with errors.Is.
var (
	// ErrNotFound: no conclusion has that ID.
	ErrNotFound = errors.New("tms: no such conclusion")
	// ErrNoEnvironment: Justify or Check before the first Sync.
	ErrNoEnvironment = errors.New("tms: no environment yet (call Sync first)")
	// ErrBadConclusion: a conclusion with an unknown kind or premise kind,
	// an empty key, or an antecedent that is not kept.
	ErrBadConclusion = errors.New("tms: bad conclusion")
	// ErrBadRules: the rules answered outside the label protocol.
	ErrBadRules = errors.New("tms: the rules returned an unexpected term")
	// ErrClosed: the store is closed.
	ErrClosed = errors.New("tms: closed")
)
