% Tests for resolve.pl.

timer(cand("timer_start", [[w("set"), w("a"), w("timer"), w("for"), slot("duration")],
                          [w("start"), w("a"), w("timer")]], 100)).
lights(cand("lights_on", [[w("turn"), w("on"), w("the"), w("lights"), w("in"), slot("room")],
                         [w("turn"), w("on"), w("the"), w("lights")]], 80)).

play(cand("music_play", [[w("play"), slot("what")]], 100)).
skip(cand("music_skip", [[w("next"), w("track")], [w("skip")]], 90)).
kinds(Ts, Ks, utterance(Ts, [shapes([]), function_words(["the"]), slot_kinds(Ks)])).

test(exact_phrasing_is_accepted_with_its_slot_words) :-
    timer(C),
    resolve(utterance(["set", "a", "timer", "for", "5", "minutes"]), [C], R),
    R = accept(I, Args, [because(Rule, _)]),
    I == "timer_start",
    Args == [arg("duration", ["5", "minutes"])],
    Rule == in_exact_phrasing.

test(fillers_may_appear_anywhere) :-
    timer(C), lights(L),
    resolve(utterance(["please", "turn", "on", "the", "lights", "now"]), [C, L], R),
    R = accept(I, [], _),
    I == "lights_on".

test(a_slot_takes_the_words_up_to_the_next_literal) :-
    lights(L),
    resolve(utterance(["turn", "on", "the", "lights", "in", "the", "living", "room"]), [L], R),
    R = accept(_, [arg("room", Words)], _),
    Words == ["the", "living", "room"].

test(no_full_match_asks_for_a_repair_among_the_candidates) :-
    timer(C), lights(L),
    resolve(utterance(["it", "is", "too", "dark", "here"]), [C, L], R),
    R = repair(Is, [because(Rule, _)]),
    Is == ["timer_start", "lights_on"],
    Rule == in_no_phrasing.

test(two_intents_matching_equally_ask_which) :-
    A = cand("music_play", [[w("play"), slot("what")]], 100),
    B = cand("video_play", [[w("play"), slot("what")]], 90),
    resolve(utterance(["play", "jazz"]), [A, B], R),
    R = clarify(which(Is), Is, [because(Rule, _)]),
    Is == ["music_play", "video_play"],
    Rule == in_same_phrasing.

test(no_candidates_is_out_of_scope) :-
    resolve(utterance(["what", "is", "love"]), [], R),
    R = fallback_chat(Reason, _),
    Reason == out_of_scope.

test(empty_utterance_is_rejected) :-
    resolve(utterance([]), [], R),
    R = reject(Reason, _),
    Reason == empty_utterance.

test(without_a_synonym_another_word_does_not_match) :-
    timer(C),
    \+ resolve(utterance(["begin", "a", "timer"]), [C], accept(_, _, _)).

test(hostile_words_are_only_words) :-
    timer(C),
    resolve(utterance(["halt.", "call(halt)", "x", "=", "1"]), [C], R),
    R = repair(_, _).

test(the_most_specific_phrasing_wins) :-
    C = cand("thermostat_set", [[w("set"), w("the"), w("thermostat"), w("to"), slot("degrees")],
                               [w("set"), w("the"), w("thermostat"), w("to"), slot("degrees"), w("degrees")]], 100),
    resolve(utterance(["set", "the", "thermostat", "to", "21.5", "degrees"]), [C], R),
    R = accept(_, Args, _),
    Args == [arg("degrees", ["21.5"])].

test(a_slot_does_not_take_in_a_joined_request) :-
    A = cand("music_play", [[w("play"), slot("what")]], 100),
    lights(L),
    resolve(utterance(["play", "jazz", "and", "then", "turn", "on", "the", "lights"]), [A, L], R),
    R = repair(Is, [because(Rule, [intents(Joined)])]),
    Is == ["music_play", "lights_on"],
    Rule == in_joined_requests,
    Joined == ["music_play"].

test(a_conjunction_inside_a_value_stays) :-
    A = cand("shopping_add", [[w("add"), slot("item"), w("to"), w("the"), w("list")]], 100),
    resolve(utterance(["add", "milk", "and", "eggs", "to", "the", "list"]), [A], R),
    R = accept(_, Args, _),
    Args == [arg("item", ["milk", "and", "eggs"])].

test(an_unresolved_second_request_is_a_clarify_not_half_an_accept) :-
    A = cand("search_web", [[w("search"), w("the"), w("web"), w("for"), slot("query")]], 100),
    U = utterance(["search", "the", "web", "for", "flights", "and", "book", "a", "hotel"],
                  [shapes([]), function_words(["the", "for", "and", "a"])]),
    resolve(U, [A], R),
    R = clarify(several_requests(Is, Req), Is, [because(Rule, _)]),
    Is == ["search_web"],
    Req == ["book", "a", "hotel"],
    Rule == in_unresolved_request.

test(two_resolved_requests_still_go_to_the_repair) :-
    A = cand("music_play", [[w("play"), slot("what")]], 100),
    lights(L),
    resolve(utterance(["play", "jazz", "and", "turn", "on", "the", "lights"], [shapes([]), function_words(["and", "on", "the"])]), [A, L], R),
    R = repair(_, [because(Rule, _)]),
    Rule == in_joined_requests.

test(an_action_without_an_object_is_asked_about) :-
    Off = cand("lights_off", [[w("turn"), w("off"), w("the"), w("lights")], [w("lights"), w("off")]], 100),
    lights(L),
    resolve(utterance(["turn", "it", "off"], [shapes([]), function_words(["it", "the", "on"])]), [Off, L], R),
    R = clarify(no_object(Is), Is, [because(Rule, _)]),
    Is == ["lights_off"],
    Rule == in_no_object.

test(an_action_with_its_object_is_not_objectless) :-
    Off = cand("lights_off", [[w("turn"), w("off"), w("the"), w("lights")]], 100),
    resolve(utterance(["turn", "the", "lamp", "off"], [shapes([]), function_words(["the"])]), [Off], R),
    R = repair(_, _).

test(a_content_word_that_is_no_action_is_not_objectless) :-
    Cal = cand("calendar_next", [[w("what"), w("is"), w("next"), w("on"), w("my"), w("calendar")]], 100),
    resolve(utterance(["what's", "on", "my", "calendar"], [shapes([]), function_words(["what's", "is", "on", "my"])]), [Cal], R),
    R = repair(_, _).


test(a_command_inside_an_open_value_is_asked_about) :-
    play(P), skip(S),
    kinds(["play", "the", "next", "track"], [kind("music_play", "what", text)], U),
    resolve(U, [P, S], R),
    R = clarify(which(Is), Is, [because(Rule, [intent(I), slot(Slot), commands(Cs)])]),
    Is == ["music_play", "music_skip"], Rule == in_command_in_value,
    I == "music_play", Slot == "what", Cs == ["music_skip"].

test(words_kept_as_written_may_hold_a_command) :-
    N = cand("note_add", [[w("write"), w("down"), slot("text")]], 100),
    Off = cand("lights_off", [[w("turn"), w("off"), w("the"), w("lights")]], 90),
    kinds(["write", "down", "turn", "off", "the", "lights"], [kind("note_add", "text", any)], U),
    resolve(U, [N, Off], R),
    R = accept(I, _, _),
    I == "note_add".

test(a_command_less_specific_than_the_phrasing_is_a_value) :-
    P = cand("music_play", [[w("put"), w("on"), slot("what")]], 100), skip(S),
    kinds(["put", "on", "skip"], [kind("music_play", "what", text)], U),
    resolve(U, [P, S], R),
    R = accept(I, [arg("what", Ws)], _),
    I == "music_play", Ws == ["skip"].

test(a_command_that_is_only_part_of_the_value_is_a_value) :-
    play(P), skip(S),
    kinds(["play", "the", "next", "track", "by", "the", "band"], [kind("music_play", "what", text)], U),
    resolve(U, [P, S], R),
    R = accept(I, _, _),
    I == "music_play".

test(a_command_with_a_slot_is_a_value) :-
    play(P), C = cand("call_contact", [[w("call"), w("me"), slot("who")]], 80),
    kinds(["play", "call", "me", "maybe"], [kind("music_play", "what", text)], U),
    resolve(U, [P, C], R),
    R = accept(I, _, _),
    I == "music_play".
