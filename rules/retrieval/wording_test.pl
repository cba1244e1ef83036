% Tests for wording.pl. Features are written as Go's bridge.QueryFeaturesIn
% computes them (text(Q) left out where a snapshot's lexicon matters).

test(a_doc_sentence_with_a_relation_word_and_no_named_object_is_a_description) :-
    features_from_list([tokens(8), content(5), idents([id("DNSStart", pascal), id("when", plain)]),
                        relation(callers), relation_object("when"),
                        words(["dnsstart", "dns", "lookup", "begins", "start"])], F),
    classify(F, C, because(R, Ps)),
    C == description,
    R == cls_sentence_description,
    memberchk(object_word("when"), Ps),
    plan_features(F, [exact, structural, graph, lexical, vector, hybrid], plan(description, Steps, _)),
    Steps = [step(lexical, [text(_)|_], evidence), step(hybrid, [text(_)|_], evidence)].

test(a_relation_with_a_named_object_stays_a_relationship) :-
    features_from_list([tokens(9), content(4), idents([id("ServeHTTP", pascal)]),
                        relation(callers), relation_object("ServeHTTP"),
                        words(["server", "package", "handling", "requests"])], F),
    classify(F, C, _),
    C == relationship.

test(a_long_sentence_without_relation_words_is_a_description) :-
    features_from_list([tokens(8), content(6), idents([id("Reader", pascal)]),
                        words(["turns", "body", "stream", "closer", "wraps", "bytes"])], F),
    classify(F, C, because(R, _)),
    C == description,
    R == cls_sentence_description.

test(a_short_description_is_conceptual_as_before) :-
    features_from_list([tokens(3), content(3), words(["parse", "multipart", "form"])], F),
    classify(F, C, _),
    C == conceptual.

test(a_description_tries_embeddings_only_after_bm25_found_nothing) :-
    features_from_list([tokens(6), content(5), words(["a", "b", "c", "d", "e"])], F),
    next(description, F, [result(step(lexical, [text("x")], evidence), 0, [])],
         [step(hybrid, [text("x")], evidence)], Next, _),
    Next = [step(hybrid, _, _)],
    next(description, F, [result(step(lexical, [text("x")], evidence), 3, ["a"])],
         [step(hybrid, [text("x")], evidence)], Next2, _),
    Next2 == [].
