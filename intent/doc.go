// Package intent is the intent router: it routes a user's utterance to
// one of a host's registered intents — deterministic logic first, a
// bounded model repair only when logic cannot decide, and the host's own
// validation after that.
//
//	utterance ─► rewriter hook (host, pure, bounded)
//	          ─► tokens ─► candidate intents (BM25 over phrasings and descriptions)
//	          ─► resolver (rules/intent/resolve.pl: phrasings, synonyms, slot words;
//	               a slot's words that are another intent's command are asked about)
//	               accept / clarify / fallback_chat / reject: done, no model call
//	               repair: one model call through the completion loop (package
//	               loop), given only typed context — the utterance, the
//	               candidates' signatures and slot schemas, the granted
//	               capabilities, host-selected state, the turn — answering
//	               one JSON object of the closed result family, the intent
//	               limited to the candidates
//	          ─► a repair's accept: the guard (rules/intent/guard.pl): every
//	             value comes from the utterance, some word the user wrote
//	             explains the intent, no injection marker, URL/path/code
//	             shape or second request, and a pick that changes
//	             something rests on no word of another offered intent
//	          ─► validation (independent of how the result was reached):
//	             the intent exists, the slot values parse and meet their
//	             slots' constraints (ranges, patterns, kinds: Slot) and its
//	             schema, the host has what they name (its catalogs,
//	             rules/intent/values.pl, and Options.CheckValue), its
//	             capabilities are granted and its side effect allowed
//	             (tools.Executor.Check)
//	          ─► Result: accept (ready to Execute), clarify, reject or
//	             fallback_chat, with the evidence of every step
//
// Intents come from rule files (intent/4 and phrasing/2 facts, see
// rules/intent/registry.pl) and from Go (Registry.Add). The model can only
// pick among the candidates it is shown or fall back: it cannot invent an
// intent, a capability, a tool, a file, a process or a URL; its output is
// decoded as JSON into the closed family and nothing it says is called or
// consulted. Turns have ids: a Session cancels an older turn when a newer
// one starts, and a stale turn's result is never applied.
package intent
