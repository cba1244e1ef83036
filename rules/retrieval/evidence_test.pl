% Tests for evidence.pl.

% Features of "what does http.Get call?": the last segment "Get" exists, so the search is
% (tests below: the last segment Get exists, so the search is retargeted).
qualified_callees(F) :-
    features_from_list([tokens(4), idents([id("http.Get", qualified)]), relation(callees),
                        relation_object("http.Get"), text("what does http.Get call?")], F).


test(definition_found_is_enough) :-
    features_from_list([], F0),
    verdict(identifier, F0, result(step(exact, [name("Server")], evidence), 2, ["Server"]), V, because(R, _)),
    V == enough,
    R == ev_definition_found.

test(missing_symbol_is_a_gap) :-
    features_from_list([], F0),
    verdict(identifier, F0, result(step(exact, [name("Nope")], evidence), 0, []), V, _),
    V == gap(symbol_not_found("Nope")).

test(no_callers_settles) :-
    features_from_list([], F0),
    verdict(relationship, F0, result(step(graph, [relation(callers), name("f")], evidence), 0, []), V, _),
    V == settled(no_edges(callers, "f")).

test(case_insensitive_check_resolves) :-
    features_from_list([], F0),
    verdict(relationship, F0, result(step(exact, [name("servehttp"), case(insensitive)], check), 3, ["ServeHTTP"]), V, _),
    V == resolved("ServeHTTP").

test(gap_drives_fallback_then_pending) :-
    Pending = [step(graph, [relation(callers), name("servehttp")], evidence)],
    features_from_list([relation(callers)], F),
    next(relationship, F,
         [result(step(exact, [name("servehttp")], check), 0, [])],
         Pending, Next, outcome(Events, Whys)),
    Events == [],
    Next = [step(exact, [name("servehttp"), case(insensitive)], check)|Rest],
    Rest == Pending,
    Whys = [because(ev_symbol_not_found, _), because(fb_case_insensitive, _)].

test(resolution_retargets_relation) :-
    features_from_list([relation(callers), relation_object("servehttp"),
                        idents([id("servehttp", plain)])], F),
    next(relationship, F,
         [result(step(exact, [name("servehttp"), case(insensitive)], check), 1, ["ServeHTTP"])],
         [step(graph, [relation(callers), name("servehttp"), match(resolved)], evidence)], Next, outcome(Events, _)),
    Next == [step(graph, [relation(callers), name("ServeHTTP"), match(resolved)], evidence)],
    Events == [resolved("servehttp", "ServeHTTP", ev_target_resolved)].

test(unfilled_gap_stops_and_says_so) :-
    H = [result(step(lexical, [text("zz")], check), 0, []),
         result(step(exact, [name("zz"), case(insensitive)], check), 0, []),
         result(step(exact, [name("zz")], check), 0, [])],
    features_from_list([relation(callers)], F),
    next(relationship, F, H, [], Next, outcome(Events, Whys)),
    Next == [],
    Events == [gap(no_lexical_hits)],
    memberchk(because(ev_gap_unfilled, _), Whys).

test(conceptual_continues_after_focus_lookup) :-
    features_from_list([], F),
    next(conceptual, F, [result(step(exact, [name("Request")], evidence), 1, ["Request"])],
         [step(lexical, [text("x")], evidence)], Next, outcome(Events, _)),
    Next == [step(lexical, [text("x")], evidence)],
    Events == [].

test(unfilled_evidence_gap_goes_on_with_pending_steps) :-
    features_from_list([], F),
    Pending = [step(vector, [text("x")], evidence)],
    next(broad, F, [result(step(lexical, [text("x")], evidence), 0, [])], Pending, Next, outcome(Events, Whys)),
    Next == Pending,
    Events == [gap(no_lexical_hits)],
    memberchk(because(ev_gap_unfilled, _), Whys).

test(broad_bm25_hits_do_not_stop_the_plan) :-
    features_from_list([], F0),
    verdict(broad, F0, result(step(lexical, [text("cookie")], evidence), 4, []), V, _),
    V == continue.

test(last_segment_check_retargets_the_relation) :-
    qualified_callees(F),
    next(relationship, F,
         [result(step(exact, [name("Get")], check), 2, ["Get", "Get"]),
          result(step(exact, [name("http.Get")], check), 0, [])],
         [step(graph, [relation(callees), name("http.Get")], evidence)], Next, outcome(Events, _)),
    Next == [step(graph, [relation(callees), name("Get")], evidence)],
    Events == [resolved("http.Get", "Get", ev_target_renamed)].

test(same_name_check_does_not_claim_a_resolution) :-
    qualified_callees(F),
    next(relationship, F, [result(step(exact, [name("http.Get")], check), 1, ["Get"])],
         [step(graph, [relation(callees), name("http.Get")], evidence)], Next, outcome(Events, _)),
    Next == [step(graph, [relation(callees), name("http.Get")], evidence)],
    Events == [].

test(last_segment_evidence_is_answered_for_the_segment) :-
    features_from_list([tokens(1), idents([id("http.ListenAndServe", qualified)]),
                        text("http.ListenAndServe")], F),
    next(identifier, F, [result(step(exact, [name("ListenAndServe")], evidence), 1, ["ListenAndServe"])],
         [], Next, outcome(Events, _)),
    Next == [],
    Events == [resolved("http.ListenAndServe", "ListenAndServe", ev_definition_found)].

test(case_insensitive_evidence_is_answered_for_the_found_name) :-
    features_from_list([tokens(1), idents([id("servehttp", plain)]), text("servehttp")], F),
    next(identifier, F, [result(step(exact, [name("servehttp"), case(insensitive)], evidence), 3, ["ServeHTTP"])],
         [], _, outcome(Events, _)),
    Events == [resolved("servehttp", "ServeHTTP", ev_definition_found)].

test(exact_evidence_for_the_target_is_no_resolution) :-
    features_from_list([tokens(1), idents([id("Server", pascal)]), text("Server")], F),
    next(identifier, F, [result(step(exact, [name("Server")], evidence), 2, ["Server"])],
         [], _, outcome(Events, _)),
    Events == [].

test(fuzzy_evidence_for_a_missing_name_keeps_the_gap_open) :-
    features_from_list([tokens(4), cue(definition), idents([id("VendoredFunc", pascal)]),
                        text("where is VendoredFunc defined?")], F),
    H = [result(step(lexical, [text("VendoredFunc")], evidence), 8, ["Render"]),
         result(step(exact, [name("VendoredFunc"), case(insensitive)], evidence), 0, []),
         result(step(exact, [name("VendoredFunc")], evidence), 0, [])],
    next(identifier, F, H, [], Next, outcome(Events, _)),
    Next == [],
    Events == [gap(symbol_not_found("VendoredFunc"))].

% The steps of a constrained query carry the constraint (changed(last));
% text/1 is the query without its constraint phrase.
test(fuzzy_evidence_under_a_constraint_keeps_the_gap_open) :-
    features_from_list([tokens(4), cue(definition), idents([id("Fresh9", pascal)]),
                        text("where is Fresh9 defined")], F),
    H = [result(step(lexical, [text("Fresh9"), changed(last)], evidence), 2, ["Fresh1"]),
         result(step(exact, [name("Fresh9"), case(insensitive), changed(last)], evidence), 0, []),
         result(step(exact, [name("Fresh9"), changed(last)], evidence), 0, [])],
    next(identifier, F, H, [], Next, outcome(Events, _)),
    Next == [],
    Events == [gap(symbol_not_found("Fresh9"))].

test(bm25_evidence_for_a_description_is_no_gap) :-
    features_from_list([tokens(4), content(4), text("parse multipart form boundaries")], F),
    next(conceptual, F, [result(step(lexical, [text("parse multipart form boundaries")], evidence), 5, ["ParseMultipartForm"])],
         [], _, outcome(Events, _)),
    Events == [].

test(a_check_that_finds_one_near_name_resolves_the_misspelled_target) :-
    features_from_list([relation(callers), idents([id("findHandlr", camel)]), relation_object("findHandlr")], F),
    verdict(relationship, F, result(step(exact, [name("findHandlr"), spelling(near)], check), 2, ["findHandler", "findHandler"]), V, because(R, _)),
    V == resolved("findHandler"),
    R == ev_target_misspelled.

test(equally_near_names_leave_the_target_not_found) :-
    features_from_list([relation(callers)], F),
    verdict(relationship, F, result(step(exact, [name("gotA"), spelling(near)], check), 2, ["getA", "gotB"]), V, because(R, Ps)),
    V == gap(symbol_not_found("gotA")),
    R == ev_spelling_ambiguous,
    Ps == [name("gotA"), candidates(["getA", "gotB"])].

test(near_definitions_answer_an_identifier_for_the_near_name) :-
    features_from_list([tokens(1), idents([id("Sevrer", pascal)]), text("Sevrer")], F),
    next(identifier, F, [result(step(exact, [name("Sevrer"), spelling(near)], evidence), 1, ["Server"])],
         [], Next, outcome(Events, [because(R, _)|_])),
    Next == [],
    R == ev_near_names_found,
    Events == [resolved("Sevrer", "Server", ev_near_names_found)].

test(definitions_of_several_near_names_keep_the_gap_open) :-
    features_from_list([tokens(1), idents([id("gotA", camel)]), text("gotA")], F),
    next(identifier, F, [result(step(exact, [name("gotA"), spelling(near)], evidence), 2, ["getA", "gotB"])],
         [], _, outcome(Events, _)),
    Events == [gap(symbol_not_found("gotA"))].

test(calls_by_name_of_a_qualified_target_keep_the_gap_open) :-
    features_from_list([relation(callers), idents([id("Header.encode", qualified)]), relation_object("Header.encode")], F),
    next(relationship, F,
         [result(step(graph, [relation(callers), name("Header.encode")], evidence), 28, ["body_encode"]),
          result(step(graph, [relation(callers), name("Header.encode"), match(resolved)], evidence), 0, []),
          result(step(exact, [name("Header.encode")], check), 1, ["encode"])],
         [], Next, outcome(Events, _)),
    Next == [],
    Events == [gap(no_resolved_calls("Header.encode"))].

test(calls_by_name_of_a_plain_target_are_the_answer) :-
    features_from_list([relation(callers), idents([id("get_payload", snake)]), relation_object("get_payload")], F),
    next(relationship, F,
         [result(step(graph, [relation(callers), name("get_payload")], evidence), 18, ["flatten"]),
          result(step(graph, [relation(callers), name("get_payload"), match(resolved)], evidence), 0, []),
          result(step(exact, [name("get_payload")], check), 1, ["get_payload"])],
         [], _, outcome(Events, _)),
    Events == [].
