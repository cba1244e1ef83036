% Tests for callers.pl: what of a callers step's matches is evidence,
% and what a callers question does about a name the tree does not define.

callers_of(Name, F) :-
    features_from_list([tokens(3), content(0), idents([id(Name, pascal)]), relation(callers),
                        relation_object(Name)], F).

test(a_callers_question_keeps_only_resolved_calls) :-
    callers_of("Read", F),
    plan_features(F, plan(relationship, Steps, Whys)),
    memberchk(step(graph, [relation(callers), name("Read"), match(resolved)], evidence), Steps),
    memberchk(because(st_resolved_callers, [relation(callers), target("Read"), match(resolved)]), Whys).

test(resolved_callers_found_are_the_answer) :-
    callers_of("Read", F),
    next(relationship, F,
         [result(step(graph, [relation(callers), name("body.Read"), match(resolved)], evidence), 3, []),
          result(step(exact, [name("body.Read")], check), 1, ["Read"])],
         [], Next, outcome(Events, [because(R, _)])),
    Next == [], Events == [], R == ev_edges_found.

test(no_resolved_call_of_a_defined_target_falls_back_to_calls_by_name) :-
    callers_of("send", F),
    next(relationship, F,
         [result(step(graph, [relation(callers), name("send"), match(resolved)], evidence), 0, []),
          result(step(exact, [name("send")], check), 1, ["send"])],
         [], Next, outcome(Events, Whys)),
    Next == [step(graph, [relation(callers), name("send")], evidence)],
    Events == [],
    Whys = [because(ev_no_resolved_calls, [name("send"), defined(yes)]), because(fb_callers_by_name, _)].

test(calls_by_name_are_not_asked_twice) :-
    callers_of("send", F),
    next(relationship, F,
         [result(step(graph, [relation(callers), name("send"), match(resolved)], evidence), 0, []),
          result(step(graph, [relation(callers), name("send")], evidence), 0, []),
          result(step(exact, [name("send")], check), 1, ["send"])],
         [], Next, outcome(Events, _)),
    Next == [],
    Events == [gap(no_resolved_calls("send"))].

test(a_defined_target_with_no_call_at_all_is_settled) :-
    callers_of("send", F),
    next(relationship, F,
         [result(step(graph, [relation(callers), name("send")], evidence), 0, []),
          result(step(graph, [relation(callers), name("send"), match(resolved)], evidence), 0, []),
          result(step(exact, [name("send")], check), 1, ["send"])],
         [], Next, outcome(Events, [because(R, _)])),
    Next == [], Events == [], R == ev_no_edges.

test(an_undefined_name_is_asked_for_its_call_sites_once) :-
    callers_of("Sprintf", F),
    Graph = step(graph, [relation(callers), name("Sprintf"), match(resolved)], evidence),
    next(relationship, F, [result(step(exact, [name("Sprintf")], check), 0, [])], [Graph], Next,
         outcome(Events, Whys)),
    Next == [Graph],
    Events == [],
    Whys = [because(ev_symbol_not_found, _), because(fb_call_sites, [gap(symbol_not_found("Sprintf"))])].

test(call_sites_of_an_undefined_name_are_the_answer_for_that_name) :-
    callers_of("Sprintf", F),
    next(relationship, F,
         [result(step(graph, [relation(callers), name("Sprintf"), match(resolved)], evidence), 12, []),
          result(step(exact, [name("Sprintf")], check), 0, [])],
         [], Next, outcome(Events, _)),
    Next == [],
    Events == [].

test(a_qualified_name_nothing_defines_or_calls_is_settled_not_retargeted) :-
    callers_of("strings.HasPrefix", F),
    next(relationship, F,
         [result(step(graph, [relation(callers), name("strings.HasPrefix"), match(resolved)], evidence), 0, []),
          result(step(exact, [name("strings.HasPrefix")], check), 0, [])],
         [], Next, outcome(Events, Whys)),
    Next == [],
    Events == [],
    Whys = [because(ev_no_call_sites, [name("strings.HasPrefix"), qualified(yes)])].

test(a_bare_name_nothing_calls_goes_on_to_the_name_fallbacks) :-
    callers_of("Sprintfz", F),
    next(relationship, F,
         [result(step(graph, [relation(callers), name("Sprintfz")], evidence), 0, []),
          result(step(graph, [relation(callers), name("Sprintfz"), match(resolved)], evidence), 0, []),
          result(step(exact, [name("Sprintfz")], check), 0, [])],
         [], Next, outcome(_, Whys)),
    Next == [step(exact, [name("Sprintfz"), case(insensitive)], check)],
    Whys = [because(ev_no_call_sites, _), because(fb_case_insensitive, _)].

test(a_qualified_relation_target_is_never_fuzzy_retargeted) :-
    H = [result(step(exact, [name("strings.HasPrefix"), case(insensitive)], check), 0, []),
         result(step(exact, [name("HasPrefix")], check), 0, [])],
    \+ default_fallback(relationship, symbol_not_found("strings.HasPrefix"), H, _, _),
    default_fallback(identifier, symbol_not_found("strings.HasPrefix"), H, _, because(R, _)),
    R == fb_fuzzy_name,
    default_fallback(relationship, symbol_not_found("HasPrefix"), H, _, because(R2, _)),
    R2 == fb_near_spelling.

test(a_retarget_keeps_only_resolved_callers) :-
    callers_of("servehttp", F),
    retarget(relationship, F, "ServeHTTP", Steps, _),
    Steps == [step(graph, [relation(callers), name("ServeHTTP"), match(resolved)], evidence)].

test(explain_shows_the_fallback_by_name) :-
    callers_of("Read", F),
    explain_features(F, explanation(_, _, _, Cs)),
    memberchk(if(step(graph, _, _), no_resolved_calls("Read"), [step(graph, [relation(callers), name("Read")], evidence)],
                 because(fb_callers_by_name, _)), Cs).
