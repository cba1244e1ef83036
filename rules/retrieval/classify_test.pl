% Tests for classify.pl. Features are written as Go's bridge.QueryFeatures
% would compute them.

feat_callers(F) :- features_from_list([tokens(3), content(0), idents([id("ServeHTTP", pascal)]), paths([]),
              quoted([]), relation(callers), relation_object("ServeHTTP"),
              cue(none), text("what calls ServeHTTP?")], F).

% both_match(+Features, +RuleIDs): every class rule named fires on Features.
both_match(F, Rules) :-
    forall(member(R, Rules), class_rule(R, F, _, _)).

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
    features_from_list([tokens(4), content(4), idents([]), paths([]), quoted([]),
              relation(none), relation_object(none), cue(none),
              text("parse multipart form boundaries")], F3),
    classify(F3, C, _),
    C == conceptual.

% An acronym with one content word: were the acronym a strong identifier
% shape, cls_bare_identifier would fire (the second query, the same but for
% the shape, shows it does); it is not, so the query is one broad word.
test(acronym_does_not_make_identifier) :-
    features_from_list([tokens(2), content(1), idents([id("HTTP", acronym)]), paths([]),
              quoted([]), relation(none), relation_object(none), cue(none),
              text("HTTP headers"), words(["headers"])], F4),
    classify(F4, C, because(R, _)),
    C == broad,
    R == cls_single_word,
    features_from_list([tokens(2), content(1), idents([id("HTTP", pascal)])], Strong),
    classify(Strong, identifier, because(cls_bare_identifier, _)).

% Class-rule precedence: each query below matches two class rules (the
% test checks that both fire, with both_match/2, so it can fail only by
% their order); the rule written first in classify.pl decides.

test(path_wins_over_relation) :-
    features_from_list([tokens(3), content(0), idents([id("net/http/server.go", plain)]),
              paths(["net/http/server.go"]), relation(callers), relation_object("net/http/server.go"),
              text("what calls net/http/server.go?")], F),
    both_match(F, [cls_path, cls_relation]),
    classify(F, C, because(R, _)),
    C == path,
    R == cls_path.

test(path_wins_over_words) :-
    features_from_list([tokens(5), content(2), idents([]), paths(["net/http/server.go"]),
              quoted([]), relation(none), relation_object(none), cue(none),
              text("timeouts and deadlines in net/http/server.go"), words(["timeouts", "deadlines"])], F5),
    both_match(F5, [cls_path, cls_descriptive]),
    classify(F5, C, because(R, _)),
    C == path,
    R == cls_path.

test(relation_wins_over_words) :-
    features_from_list([tokens(7), content(2), idents([id("ServeHTTP", pascal)]), relation(callers),
              relation_object("ServeHTTP"), text("what calls ServeHTTP in the server loop?"),
              words(["server", "loop"])], F),
    both_match(F, [cls_relation, cls_descriptive]),
    classify(F, C, because(R, _)),
    C == relationship,
    R == cls_relation.

test(relation_wins_over_bare_identifier) :-
    feat_callers(F),
    both_match(F, [cls_relation, cls_bare_identifier]),
    classify(F, _, because(R, _)),
    R == cls_relation.

test(definition_cue_wins_over_words) :-
    features_from_list([tokens(8), content(2), idents([id("Server", pascal)]), cue(definition),
              text("where is Server defined in the http package?"), words(["http", "package"])], F),
    both_match(F, [cls_definition_cue, cls_descriptive]),
    classify(F, C, because(R, _)),
    C == identifier,
    R == cls_definition_cue.

test(words_win_over_identifiers) :-
    features_from_list([tokens(5), content(2), idents([id("Request", pascal)]),
              text("how does Request parse forms"), words(["parse", "forms"])], F),
    both_match(F, [cls_descriptive, cls_identifiers_only]),
    classify(F, C, because(R, _)),
    C == conceptual,
    R == cls_descriptive.

test(identifiers_win_over_single_word) :-
    features_from_list([tokens(2), content(0), idents([id("ServeHTTP", pascal), id("readRequest", camel)]),
              text("ServeHTTP readRequest")], F),
    both_match(F, [cls_identifiers_only, cls_single_word]),
    classify(F, C, because(R, _)),
    C == identifier,
    R == cls_identifiers_only.

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

% feature/2 reads the argument its property names, enumerates the
% properties in argument order when none is given, fails on a term that
% is not features/14 and builds one when given none.
test(feature_reads_each_property_by_its_argument) :-
    F = features(t, c, i, p, q, r, o, cu, x, w, cs, sn, op, ac),
    findall(P, feature(P, F), Ps),
    Ps == [tokens(t), content(c), idents(i), paths(p), quoted(q), relation(r),
           relation_object(o), cue(cu), text(x), words(w), constraints(cs),
           source_names(sn), opening(op), acronyms(ac)],
    feature(cue(Cue), F), Cue == cu,
    \+ feature(cue(_), features(t, c)),
    \+ feature(colour(_), F),
    feature(tokens(3), G),
    G = features(N, _, _, _, _, _, _, _, _, _, _, _, _, _), N == 3.
