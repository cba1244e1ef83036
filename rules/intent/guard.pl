/*  guard.pl -- may a model's accept stand? The repair's guard.

    When the resolver cannot decide, one model call may choose among the
    candidates (package intent). Its accept is data; before validation
    (validate.pl) runs it, these rules decide whether it is grounded in
    what the user said:

      repair_guard(+Utterance, +Candidates, +Accept, -Verdict)

      Utterance   utterance(Tokens, Features), as resolve/3 gets it
      Candidates  [cand(Intent, Phrasings, Score)|...], what the model was
                  offered (resolve.pl)
      Accept      accept(Intent, Values, coverage(Explained, Unexplained,
                  Contested), Effect):
                  Intent the model's choice (a string); Values
                  [value(Slot, grounded|ungrounded)|...], one per argument
                  it gave: grounded when Go found the value in the
                  utterance — a string's words among its words, a number,
                  duration, boolean or enum value that some of its words
                  say; Explained and Unexplained the utterance's content
                  words (no filler, no function word) that the intent's own
                  words (name, description, slots, phrasings, synonyms)
                  or the values account for, and the others; Contested
                  [contested(Word, Intents)|...], the unexplained words
                  that the words of other offered intents explain, with
                  those intents; Effect the intent's side effect: none,
                  read, write or external
      Verdict     allow(Evidence), or refuse(Kind, Reason, Evidence): Kind
                  clarify or reject, what the turn becomes instead

    Hooks (declare multifile in your own file):
      extra_repair_guard(Utterance, Candidates, Accept, Verdict)
                  tried before the default rules
      confirm_side_effect(Effect)
                  a model's pick of an intent with this side effect is
                  confirmed with the user (a clarify) when a word it
                  leaves unexplained is another offered intent's word
                  (default: write and external — what changes the world)
*/

:- multifile(rule_id/2).
:- multifile(extra_repair_guard/4).
:- dynamic(extra_repair_guard/4).
:- multifile(confirm_side_effect/1).
:- dynamic(confirm_side_effect/1).

confirm_side_effect(write).
confirm_side_effect(external).

rule_id(rg_outside_candidates, "the model chose an intent it was not offered").
rule_id(rg_injection_marker, "the utterance addresses the router's instructions, role or authority: a repair alone never runs it").
rule_id(rg_hostile_shape, "the utterance holds a URL, a path or code: a repair alone never runs it").
rule_id(rg_several_requests, "the utterance holds a second request after a conjunction: one intent per turn, a repair alone never runs a part").
rule_id(rg_ungrounded_value, "a value the model gave is not in the utterance, nor a number, duration or enum value its words say").
rule_id(rg_unexplained_words, "the intent and its values explain none of the utterance's content words: the choice rests on no word the user said").
rule_id(rg_contested_side_effect, "the intent changes something, and a word it leaves unexplained is a word of another offered intent: the user may have asked for that one, so ask before doing it").
rule_id(rg_grounded, "the intent was offered, every value comes from the utterance, some of its words explain the choice, and nothing marks the utterance").

%! repair_guard(+Utterance, +Candidates, +Accept, -Verdict) is det.
repair_guard(U, Cs, A, V) :-
    extra_repair_guard(U, Cs, A, V), !.
repair_guard(_, Cs, accept(I, _, _, _), refuse(clarify, outside_candidates, [because(rg_outside_candidates, [intent(I)])])) :-
    \+ member(cand(I, _, _), Cs), !.
repair_guard(U, _, _, refuse(reject, injection, [because(rg_injection_marker, [marker(M)])])) :-
    injection_in(U, M), !.
repair_guard(U, _, _, refuse(reject, hostile_shape, [because(rg_hostile_shape, [shapes(Ss)])])) :-
    ut_feature(U, shapes(Ss)),
    Ss \== [], !.
repair_guard(U, Cs, _, refuse(clarify, several_requests, [because(rg_several_requests, [request(R)])])) :-
    candidate_starts(Cs, Starts),
    split_requests(U, Starts, [_, R|_]), !.
repair_guard(_, _, accept(_, Vs, _, _), refuse(clarify, ungrounded_value, [because(rg_ungrounded_value, [slot(S)])])) :-
    member(value(S, ungrounded), Vs), !.
repair_guard(_, _, accept(_, _, coverage([], X, _), _), refuse(clarify, unexplained_words, [because(rg_unexplained_words, [unexplained(X)])])) :-
    X \== [], !.
repair_guard(_, _, accept(I, _, coverage(_, _, Cs), E), refuse(clarify, contested, [because(rg_contested_side_effect, [intent(I), side_effect(E), contested(Cs)])])) :-
    Cs \== [],
    confirm_side_effect(E), !.
repair_guard(_, _, accept(I, _, _, _), allow([because(rg_grounded, [intent(I)])])).
