/*  resolve.pl -- which registered intent does an utterance ask for?

    The deterministic resolver of the intent router (package intent). Go
    tokenizes the utterance (lowercased words and numbers, as strings) and
    finds candidate intents by BM25 over their phrasings and descriptions;
    these rules decide, over those candidates only, without a model:

      resolve(+Utterance, +Candidates, -Result)

      Utterance   utterance(Tokens, Features) or utterance(Tokens): the
                  words, strings, in order, and what Go found in the raw
                  text (requests.pl describes the features)
      Candidates  [cand(Intent, Phrasings, Score)|...], best BM25 first:
                  Intent a string, Phrasings a list of patterns, each a list
                  of w(Word) and slot(SlotName) (strings); Score 0..100,
                  the candidate's BM25 score as a percentage of the best
      Result      one of the closed family Go decodes by shape:
        accept(Intent, Args, Evidence)   one intent's phrasing matches the
                                         whole utterance; Args is a list of
                                         arg(Slot, Tokens) (the slot's words)
        clarify(Question, Intents, Evidence)
                                         Question is which(Intents): several
                                         intents match equally well;
                                         no_object(Intents): the words name
                                         an action, not what to act on,
                                         and these intents' phrasings say
                                         it;
                                         several_requests(Intents, Words): a
                                         second request (Words) no
                                         candidate resolves follows a
                                         conjunction; Intents match the
                                         first request (maybe none)
        fallback_chat(Reason, Evidence)  nothing registered is near: Reason
                                         out_of_scope
        reject(Reason, Evidence)         Reason empty_utterance
        repair(Intents, Evidence)        logic cannot decide among these
                                         candidates: one bounded model
                                         repair may choose among them
      Evidence is a list of because(RuleID, Premises).

    Slot values are only the words; Go parses and validates them against
    the intent's slot schema (types, enums, required), independently.

    Extension hooks (declare multifile in your own file):
      synonym(Word, Canonical)   Word in an utterance matches Canonical in a
                                 phrasing (strings), e.g. synonym("begin",
                                 "start")
      filler(Word)               a word an utterance may add anywhere
                                 ("please")
      conjunction(Word)          a word that joins two requests ("and",
                                 "then"): a slot never takes in a
                                 conjunction followed by the first word of
                                 a candidate's phrasing ("play jazz and
                                 turn on the lights" is two requests, not
                                 music called "jazz and turn on the
                                 lights"); such a turn goes to the repair
      extra_resolution(Utterance, Candidates, Result)
                                 tried before the default rules
*/

:- multifile(rule_id/2).
:- multifile(synonym/2).
:- dynamic(synonym/2).
:- multifile(filler/1).
:- multifile(extra_resolution/3).
:- dynamic(extra_resolution/3).
:- multifile(conjunction/1).

rule_id(in_empty, "the utterance has no words").
rule_id(in_out_of_scope, "no registered intent is near the utterance").
rule_id(in_exact_phrasing, "one intent's phrasing matches the whole utterance").
rule_id(in_same_phrasing, "several intents' phrasings match the whole utterance").
rule_id(in_no_phrasing, "no phrasing matches the whole utterance: the model may choose among the nearest intents").
rule_id(in_joined_requests, "a phrasing matches only if a slot takes in a second request joined by a conjunction: the model may choose among the nearest intents").
rule_id(in_unresolved_request, "a conjunction is followed by a second request, led by a verb, that no candidate's phrasing matches: ask, never do only a part").
rule_id(in_command_in_value, "the words a slot takes are another intent's command, a phrasing without slots and with as many literal words or more: two readings, ask which").
rule_id(in_no_object, "the utterance names an action but not what to act on (its content words are only verbs and particles): ask about the candidates whose phrasings say it").

conjunction("and").
conjunction("then").

filler("please").
filler("kindly").
filler("hey").
filler("ok").
filler("okay").
filler("now").
filler("could").
filler("can").
filler("would").
filler("you").
filler("me").
filler("the").
filler("a").
filler("an").

%! synonyms(-Pairs) is det.
%  Every synonym/2 as Word-Canonical: Go adds the canonical words to the
%  candidate search, so that "ring grandma" finds the intent said with
%  "call".
synonyms(Ps) :-
    findall(W-C, synonym(W, C), Ps).

%! fillers(-Words) is det.
%  Every filler/1 word: Go leaves them out when it counts an utterance's
%  content words.
fillers(Ws) :-
    findall(W, filler(W), Ws).

%! resolve(+Utterance, +Candidates, -Result) is det.
resolve(U, Cs, R) :-
    extra_resolution(U, Cs, R), !.
resolve(U, _, reject(empty_utterance, [because(in_empty, [])])) :-
    ut_tokens(U, []), !.
resolve(_, [], fallback_chat(out_of_scope, [because(in_out_of_scope, [candidates(0)])])) :- !.
resolve(U, Cs, clarify(several_requests(Is, R), Is, [because(in_unresolved_request, [request(R), intents(Is)])])) :-
    unresolved_request(U, Cs, First, R), !,
    candidate_starts(Cs, Starts),
    findall(I, ( member(cand(I, Ps, _), Cs), best_match(Ps, First, Starts, _) ), Is).
resolve(U, Cs, R) :-
    ut_tokens(U, Ts),
    candidate_starts(Cs, Starts),
    findall(I-Args, (member(cand(I, Ps, _), Cs), best_match(Ps, Ts, Starts, Args)), Matches),
    (   Matches == [],
        findall(I, ( member(cand(I, Ps, _), Cs), best_match(Ps, Ts, [], _) ), Joined),
        Joined \== []
    ->  findall(I, member(cand(I, _, _), Cs), Is),
        R = repair(Is, [because(in_joined_requests, [intents(Joined)])])
    ;   Matches == [],
        objectless_intents(U, Cs, Objectless),
        Objectless \== []
    ->  R = clarify(no_object(Objectless), Objectless, [because(in_no_object, [intents(Objectless)])])
    ;   Matches = [I-Args],
        command_in_value(U, Cs, Starts, I, Args, S, Others)
    ->  Is = [I|Others],
        R = clarify(which(Is), Is, [because(in_command_in_value, [intent(I), slot(S), commands(Others)])])
    ;   decide(Matches, Cs, R)
    ).

%! command_in_value(+Utterance, +Candidates, +Starts, +Intent, +Args, -Slot, -Others) is semidet.
%  Intent's phrasing matched the whole utterance, but the words one of its
%  slots took are, whole (fillers aside), another candidate's command: a
%  phrasing of Others without slots and with at least as many literal
%  words as Intent's. "play the next track" is music called "the next
%  track" to "play {what}", and "next track" to "next song" (a synonym);
%  the literal reading is the more specific, the slot's the one the
%  phrasing chose. Two readings: ask. Only slots whose words are acted on
%  count — kind text or name (the slot_kinds/1 feature, requests.pl); a
%  kind any slot holds what the host keeps as written ("write down turn
%  off the lights"), and a typed slot (a number, a duration) is no
%  phrasing's words.
command_in_value(U, Cs, Starts, I, Args, S, Others) :-
    ut_tokens(U, Ts),
    member(cand(I, Ps, _), Cs),
    best_match(Ps, Ts, Starts, N, Args0), Args0 == Args, !,
    member(arg(S, Ws), Args),
    slot_kind(U, I, S, K),
    ( K == text ; K == name ),
    findall(J, ( member(cand(J, Qs, _), Cs), J \== I,
                 once(( member(Q, Qs), \+ member(slot(_), Q),
                        literal_count(Q, M), M >= N,
                        match(Q, Ws, Starts, []) )) ), Others),
    Others \== [], !.

%! objectless_intents(+Utterance, +Candidates, -Intents) is det.
%  When the utterance names an action but nothing to act on — each of its
%  content words (not a filler, not a function word, so not a pronoun
%  either) is an action word: a request_verb/1 or a particle/1 ("off",
%  "turn it off", "cancel") — the candidates with a phrasing that has
%  all those words and says what to act on: a content word that is not an
%  action word ("turn off the lights"), or a slot ("play {what}").
%  Otherwise [].
objectless_intents(U, Cs, Is) :-
    ut_tokens(U, Ts),
    findall(T, ( member(T, Ts), \+ filler(T), \+ function_word(U, T) ), Content),
    (   Content \== [],
        \+ ( member(T, Content), \+ action_word(T) )
    ->  findall(I, ( member(cand(I, Ps, _), Cs), once(( member(P, Ps), acts_on_more(U, Content, P) )) ), Is)
    ;   Is = []
    ).

action_word(W) :-
    request_verb(W), !.
action_word(W) :-
    particle(W), !.
action_word(W) :-
    synonym(W, C),
    ( request_verb(C) ; particle(C) ), !.

acts_on_more(U, Content, P) :-
    \+ ( member(T, Content), \+ ( member(w(W), P), same_word(T, W) ) ),
    (   member(slot(_), P)
    ->  true
    ;   member(w(W), P),
        \+ filler(W),
        \+ function_word(U, W),
        \+ action_word(W)
    ), !.

%! decide(+Matches, +Candidates, -Result) is det.
decide([I-Args], _, accept(I, Args, [because(in_exact_phrasing, [intent(I)])])) :- !.
decide([I-_, J-_|More], _, clarify(which(Is), Is, [because(in_same_phrasing, [intents(Is)])])) :- !,
    findall(K, member(K-_, [I-x, J-x|More]), Is).
decide([], Cs, repair(Is, [because(in_no_phrasing, [candidates(Is)])])) :-
    findall(I, member(cand(I, _, _), Cs), Is).

%! best_match(+Phrasings, +Tokens, +Starts, -Args) is semidet.
%  The most specific phrasing that matches all of Tokens (the most literal
%  words: "set the thermostat to {degrees} degrees" before "set the
%  thermostat to {degrees}"; the first such on a tie), and its slot values.
%  Starts are the first words of the candidates' phrasings: no slot takes
%  in a conjunction followed by one of them.
best_match(Ps, Ts, Starts, Args) :-
    best_match(Ps, Ts, Starts, _, Args).

%! best_match(+Phrasings, +Tokens, +Starts, -Literals, -Args) is semidet.
%  best_match/4 with the number of literal words of the phrasing.
best_match(Ps, Ts, Starts, N, Args) :-
    findall(N1-A, ( member(P, Ps), once(match(P, Ts, Starts, A)), literal_count(P, N1) ), [N0-A0|More]),
    best_of(More, N0-A0, N-Args).

best_of([], Best, Best).
best_of([N-A|More], N0-A0, Best) :-
    (   N > N0
    ->  best_of(More, N-A, Best)
    ;   best_of(More, N0-A0, Best)
    ).

%! literal_count(+Pattern, -N) is det.
literal_count(P, N) :-
    findall(x, member(w(_), P), Ws),
    length(Ws, N).

%! match(+Pattern, +Tokens, +Starts, -Args) is nondet.
%  Pattern matches Tokens, every token used: words equal (or synonyms),
%  fillers skipped, a slot taking one or more tokens (the fewest first)
%  that do not join another request (Starts, see best_match/4).
match([], [], _, []).
match([], [T|Ts], Ss, Args) :-
    filler(T),
    match([], Ts, Ss, Args).
match([w(W)|P], [T|Ts], Ss, Args) :-
    same_word(T, W),
    match(P, Ts, Ss, Args).
match([w(W)|P], [T|Ts], Ss, Args) :-
    filler(T), T \== W,
    match([w(W)|P], Ts, Ss, Args).
match([slot(S)|P], Ts, Ss, [arg(S, [V|Vs])|Args]) :-
    append([V|Vs], Rest, Ts),
    \+ joins_request([V|Vs], Ss),
    match(P, Rest, Ss, Args).

%! joins_request(+Words, +Starts) is semidet.
%  Words hold a conjunction followed (after fillers and conjunctions) by a
%  word that starts a phrasing.
joins_request(Ws, Ss) :-
    append(_, [C|After], Ws),
    conjunction(C),
    first_word(After, W),
    member(S, Ss),
    same_word(W, S), !.

first_word([W|Ws], F) :-
    ( filler(W) ; conjunction(W) ), !,
    first_word(Ws, F).
first_word([W|_], W).

%! same_word(+Token, +Word) is semidet.
same_word(T, W) :-
    T == W, !.
same_word(T, W) :-
    synonym(T, W), !.
