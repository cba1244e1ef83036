% Tests for evidence.pl.

test(definition_found_is_enough) :-
    verdict(identifier, result(step(exact, [name("Server")], evidence), 2, ["Server"]), V, because(R, _)),
    V == enough,
    R == ev_definition_found.

test(missing_symbol_is_a_gap) :-
    verdict(identifier, result(step(exact, [name("Nope")], evidence), 0, []), V, _),
    V == gap(symbol_not_found("Nope")).

test(no_callers_settles) :-
    verdict(relationship, result(step(graph, [relation(callers), name("f")], evidence), 0, []), V, _),
    V == settled(no_edges(callers, "f")).

test(case_insensitive_check_resolves) :-
    verdict(relationship, result(step(exact, [name("servehttp"), case(insensitive)], check), 3, ["ServeHTTP"]), V, _),
    V == resolved("ServeHTTP").

test(gap_drives_fallback_then_pending) :-
    Pending = [step(graph, [relation(callers), name("servehttp")], evidence)],
    features_from_list([relation(callers)], F),
    next(relationship, F,
         [result(step(exact, [name("servehttp")], check), 0, [])],
         Pending, Next, Whys),
    Next = [step(exact, [name("servehttp"), case(insensitive)], check)|Rest],
    Rest == Pending,
    Whys = [because(ev_symbol_not_found, _), because(fb_case_insensitive, _)].

test(resolution_retargets_relation) :-
    features_from_list([relation(callers)], F),
    next(relationship, F,
         [result(step(exact, [name("servehttp"), case(insensitive)], check), 1, ["ServeHTTP"])],
         [step(graph, [relation(callers), name("servehttp")], evidence)], Next, _),
    Next == [step(graph, [relation(callers), name("ServeHTTP")], evidence)].

test(unfilled_gap_stops_and_says_so) :-
    H = [result(step(lexical, [text("zz")], check), 0, []),
         result(step(exact, [name("zz"), case(insensitive)], check), 0, []),
         result(step(exact, [name("zz")], check), 0, [])],
    features_from_list([relation(callers)], F),
    next(relationship, F, H, [], Next, Whys),
    Next == [],
    memberchk(because(ev_gap_unfilled, _), Whys).

test(conceptual_continues_after_focus_lookup) :-
    features_from_list([], F),
    next(conceptual, F, [result(step(exact, [name("Request")], evidence), 1, ["Request"])],
         [step(lexical, [text("x")], evidence)], Next, _),
    Next == [step(lexical, [text("x")], evidence)].

test(unfilled_evidence_gap_goes_on_with_pending_steps) :-
    features_from_list([], F),
    Pending = [step(vector, [text("x")], evidence)],
    next(broad, F, [result(step(lexical, [text("x")], evidence), 0, [])], Pending, Next, Whys),
    Next == Pending,
    memberchk(because(ev_gap_unfilled, _), Whys).

test(broad_bm25_hits_do_not_stop_the_plan) :-
    verdict(broad, result(step(lexical, [text("cookie")], evidence), 4, []), V, _),
    V == continue.
