% Tests for known.pl. Features are written as Go's bridge.QueryFeaturesIn
% computes them against a snapshot that knows the words marked known (the
% text(Q) property is left out: without a snapshot Go computes other
% features for the same text).

known_feats(Ps, F) :- features_from_list(Ps, F).

test(definition_cue_with_a_known_lowercase_word_is_an_identifier_question) :-
    known_feats([tokens(4), content(1), idents([id("send", known)]), cue(definition), words(["send"])], F),
    classify(F, C, because(R, Ps)),
    C == identifier,
    R == cls_known_definition,
    memberchk(known_symbol("send"), Ps),
    plan_features(F, [exact, structural, graph, lexical], plan(identifier, [step(exact, [name(N)], evidence)|_], _)),
    N == "send".

test(an_unknown_lowercase_word_with_a_cue_is_not_an_identifier_question) :-
    known_feats([tokens(4), content(1), idents([]), cue(definition), words(["frobnicate"])], F),
    classify(F, C, _),
    C \== identifier.

test(relation_with_a_known_object_is_a_relationship_question) :-
    known_feats([tokens(4), content(0), idents([id("get", known)]), relation(callees), relation_object("get")], F),
    classify(F, C, because(R, Ps)),
    C == relationship,
    R == cls_known_relation,
    memberchk(known_symbol("get"), Ps),
    plan_features(F, [exact, structural, graph, lexical], plan(_, Steps, _)),
    memberchk(step(graph, [relation(callees), name(N)], evidence), Steps),
    N == "get".

test(a_known_name_with_legal_characters_alone_is_an_identifier) :-
    known_feats([tokens(1), content(0), idents([id("empty?", known)])], F),
    classify(F, C, because(R, _)),
    C == identifier,
    R == cls_known_name.

test(a_description_that_mentions_known_words_stays_a_description) :-
    known_feats([tokens(7), content(4), idents([id("host", known), id("port", known)]),
                 words(["splits", "address", "host", "port"])], F),
    classify(F, C, _),
    C == conceptual.

test(a_strong_identifier_decides_as_before) :-
    known_feats([tokens(5), content(1), idents([id("Server", pascal), id("send", known)]), cue(definition), words(["send"])], F),
    classify(F, C, because(R, _)),
    C == identifier,
    R == cls_definition_cue.
