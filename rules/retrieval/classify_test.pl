% Tests for classify.pl. Features are written as Go's bridge.QueryFeatures
% would compute them.

feat_callers(F) :- features_from_list([tokens(3), content(0), idents([id("ServeHTTP", pascal)]), paths([]),
              quoted([]), relation(callers), relation_object("ServeHTTP"),
              cue(none), text("what calls ServeHTTP?")], F).

test(relationship_from_relation_verb) :-
    feat_callers(F),
    classify(F, C, because(R, _)),
    C == relationship,
    R == cls_relation.

test(bare_identifier) :-
    features_from_list([tokens(1), content(0), idents([id("ServeHTTP", pascal)]), paths([]),
              quoted([]), relation(none), relation_object(none), cue(none),
              text("ServeHTTP")], F1),
    classify(F1, C, because(R, _)),
    C == identifier,
    R == cls_bare_identifier.

test(definition_cue) :-
    features_from_list([tokens(4), content(0), idents([id("Server", pascal)]), paths([]),
              quoted([]), relation(none), relation_object(none), cue(definition),
              text("where is Server defined?")], F2),
    classify(F2, C, because(R, Premises)),
    C == identifier,
    R == cls_definition_cue,
    memberchk(target("Server"), Premises).

test(descriptive_sentence_is_conceptual) :-
    features_from_list([tokens(5), content(4), idents([]), paths([]), quoted([]),
              relation(none), relation_object(none), cue(none),
              text("parse multipart form boundaries")], F3),
    classify(F3, C, _),
    C == conceptual.

test(acronym_does_not_make_identifier) :-
    features_from_list([tokens(4), content(3), idents([id("HTTP", acronym)]), paths([]),
              quoted([]), relation(none), relation_object(none), cue(none),
              text("HTTP request header parsing")], F4),
    classify(F4, C, _),
    C == conceptual.

test(path_wins_over_words) :-
    features_from_list([tokens(2), content(1), idents([]), paths(["net/http/server.go"]),
              quoted([]), relation(none), relation_object(none), cue(none),
              text("timeouts in net/http/server.go")], F5),
    classify(F5, C, _),
    C == path.

test(empty_is_broad) :-
    features_from_list([tokens(0), content(0), idents([]), paths([]), quoted([]),
              relation(none), relation_object(none), cue(none), text("")], F6),
    classify(F6, C, because(R, _)),
    C == broad,
    R == cls_empty.

test(single_plain_word_is_broad) :-
    features_from_list([tokens(1), content(0), idents([id("cookie", plain)]), paths([]),
              quoted([]), relation(none), relation_object(none), cue(none),
              text("cookie")], F7),
    classify(F7, C, because(R, _)),
    C == broad,
    R == cls_single_word.

test(target_prefers_relation_object) :-
    features_from_list([idents([id("Handler", pascal), id("ServeHTTP", pascal)]),
            relation_object("ServeHTTP")], F1),
    target(F1, T),
    T == "ServeHTTP".

test(strong_idents_drop_acronyms) :-
    strong_idents([id("HTTP", acronym), id("readRequest", camel)], S),
    S == [id("readRequest", camel)].
