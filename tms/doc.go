// Package tms is truth maintenance for the conclusions a harness keeps (a
// justification-based TMS, JTMS): a cached answer, a session's retrieval
// and context units, a resolved name, a plan.
//
// A Conclusion records what it rests on: Premises (source files by path,
// content hash and generation; rule IDs; the embedder's identity; the
// rules' version hash; a closed-world "elsewhere" premise — no other file
// changed to mention the question's words) and Antecedents (other
// conclusions). A Store keeps conclusions in SQLite (one file per
// knowledge base), all of them also in memory, bounded with eviction.
//
// When the environment changes (Sync with a new snapshot, embedder or
// rules) the store observes every premise, hands the conclusions whose
// observations changed — with their dependants, antecedents first — to the
// rules in rules/tms (label_nodes/2), and records what the rules decide:
// each label (IN or OUT, with the rule and the premise that decided it)
// and, for a label that changed, the owner's action (withdraw, rederive,
// restore). Go holds the state and the graph; the rules decide labels and
// actions; text (paths, hashes, terms) reaches them only as strings.
//
// Restoring a file's bytes turns its conclusions IN again without
// recomputing anything (the hash decides, not the generation). WhatIf
// shows what a change would withdraw; Check re-labels one conclusion just
// before it is served, so a conclusion with an OUT premise is never
// served.
package tms
