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
    plan_features(F, [exact, structural, graph, lexical, vector, hybrid, embedder(lexical)], plan(description, Steps, _)),
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

% cue(description(Subject)): Go's bridge.docWording saw a subject and a
% third-person verb.

test(a_doc_worded_sentence_whose_relation_object_is_a_name_is_a_description) :-
    features_from_list([tokens(22), content(9), cue(description("unmarshalAnyWithRawNumber")),
                        idents([id("unmarshalAnyWithRawNumber", camel), id("JSON", acronym), id("Go", pascal), id("Number", pascal)]),
                        relation(references), relation_object("Number"),
                        words(["specifies", "unmarshaling", "number", "empty", "interface", "type", "instead", "float64", "go"])], F),
    classify(F, C, because(R, Ps)),
    C == description,
    R == cls_doc_wording,
    memberchk(cue(description("unmarshalAnyWithRawNumber")), Ps).

test(a_doc_worded_sentence_whose_relation_object_the_snapshot_knows_is_a_description) :-
    features_from_list([tokens(20), content(9), cue(description("Tokens")),
                        idents([id("JSON", acronym), id("tokens", known)]),
                        relation(references), relation_object("tokens"),
                        words(["tokens", "returns", "iterator", "tokens", "pointer", "starting", "first", "token", "last"])], F),
    classify(F, C, because(R, _)),
    C == description,
    R == cls_doc_wording.

test(the_same_relation_without_doc_wording_stays_a_relationship) :-
    features_from_list([tokens(5), content(1), idents([id("tokens", known)]),
                        relation(references), relation_object("tokens"), words(["tokens"])], F),
    classify(F, C, _),
    C == relationship.

test(a_doc_worded_sentence_without_content_words_is_no_description) :-
    features_from_list([tokens(3), content(0), cue(description("Reset")), idents([id("Reset", pascal)])], F),
    classify(F, C, _),
    C \== description.

test(a_doc_worded_sentences_subject_comes_first_ranked_by_its_text) :-
    features_from_list([tokens(8), content(3), cue(description("UnmarshalJSON")), idents([id("UnmarshalJSON", pascal)]),
                        text("UnmarshalJSON sets *m to a copy of data."), words(["sets", "copy", "data"])], F),
    plan_features(F, [exact, structural, graph, lexical, vector, hybrid, embedder(lexical)], plan(description, Steps, [_, because(R, _)|_])),
    R == st_description_subject,
    Steps = [step(exact, [name(N), text(T0)|_], evidence), step(lexical, [text(T)|_], evidence)|_],
    N == "UnmarshalJSON",
    T0 == "UnmarshalJSON sets *m to a copy of data.",
    append("UnmarshalJSON sets *m to a copy of data.", _, T).

test(a_subjects_namesakes_in_internal_packages_come_after_the_public_ones) :-
    features_from_list([tokens(8), content(3), cue(description("UnmarshalJSON")), idents([id("UnmarshalJSON", pascal)]),
                        text("UnmarshalJSON sets *m to a copy of data."), words(["sets", "copy", "data"])], F),
    plan_features(F, [exact, structural, graph, lexical, vector, hybrid, embedder(lexical)], plan(description, Steps, Why)),
    Steps = [step(exact, A, evidence), step(lexical, L, evidence)|_],
    memberchk(demote(internal), A),
    \+ memberchk(demote(internal), L),
    memberchk(because(st_description_subject, Ps), Why),
    memberchk(because(rk_public_namesake_first, [subject("UnmarshalJSON")]), Ps).

test(bm25s_hits_follow_the_subjects_definitions) :-
    features_from_list([tokens(8), content(3), cue(description("UnmarshalJSON")), idents([id("UnmarshalJSON", pascal)]),
                        text("UnmarshalJSON sets *m to a copy of data."), words(["sets", "copy", "data"])], F),
    Pending = [step(lexical, [text("UnmarshalJSON sets *m to a copy of data.")], evidence)],
    next(description, F, [result(step(exact, [name("UnmarshalJSON"), text("x")], evidence), 37, ["UnmarshalJSON"])], Pending, Next, _),
    Next == Pending.

test(other_names_a_doc_worded_sentence_mentions_are_not_looked_up) :-
    features_from_list([tokens(22), content(9), cue(description("unmarshalAnyWithRawNumber")),
                        idents([id("unmarshalAnyWithRawNumber", camel), id("JSON", acronym), id("Go", pascal), id("Number", pascal)]),
                        relation(references), relation_object("Number"),
                        words(["specifies", "unmarshaling", "number", "empty", "interface", "type", "instead", "float64", "go"])], F),
    plan_features(F, [exact, structural, graph, lexical], plan(description, Steps, _)),
    findall(N, member(step(exact, [name(N)|_], _), Steps), Ns),
    Ns == ["unmarshalAnyWithRawNumber"].

test(a_description_is_answered_by_hybrid_search_when_the_vectors_are_learned) :-
    features_from_list([tokens(10), content(6), cue(description("body")), text("body turns a stream into a closer that wraps bytes"),
                        words(["body", "turns", "stream", "closer", "wraps", "bytes"])], F),
    plan_features(F, [exact, structural, graph, lexical, vector, hybrid, embedder(learned)], plan(description, Steps, [_, _, because(R, _)])),
    Steps = [step(exact, [name("body"), text(_)|_], evidence), step(hybrid, [text(_)|_], evidence)],
    R == st_description_trusted_hybrid.

test(a_description_is_answered_by_bm25_alone_without_vectors) :-
    features_from_list([tokens(10), content(6), cue(description("body")), text("body turns a stream into a closer that wraps bytes"),
                        words(["body", "turns", "stream", "closer", "wraps", "bytes"])], F),
    plan_features(F, [exact, structural, graph, lexical], plan(description, Steps, _)),
    Steps = [step(exact, [name("body"), text(_)|_], evidence), step(lexical, [text(_)|_], evidence)].

% A description's text steps weigh doc comments (emphasis(doc)); a broad
% word's BM25 and a name's fuzzy fallback compare names and keep the
% default weights.
test(descriptive_text_steps_weigh_doc_comments) :-
    query_features("parse multipart form boundaries", C),
    plan_features(C, [exact, structural, graph, lexical], plan(conceptual, [step(lexical, A1, evidence)], _)),
    memberchk(emphasis(doc), A1),
    plan_features(C, [exact, structural, graph, lexical, vector, hybrid, embedder(learned)], plan(conceptual, [step(hybrid, A2, evidence)], _)),
    memberchk(emphasis(doc), A2),
    query_features("Tokens returns an iterator over the reference tokens", D),
    plan_features(D, [exact, structural, graph, lexical, vector, hybrid, embedder(lexical)], plan(description, DSteps, _)),
    forall(( member(step(_, A, evidence), DSteps), memberchk(text(_), A) ), memberchk(emphasis(doc), A)),
    plan_features(D, [exact, structural, graph, lexical, vector, hybrid, embedder(learned)], plan(description, LSteps, _)),
    forall(( member(step(_, A, evidence), LSteps), memberchk(text(_), A) ), memberchk(emphasis(doc), A)),
    query_features("cookie", B),
    plan_features(B, [exact, structural, graph, lexical], plan(broad, BSteps, _)),
    forall(member(step(_, A, _), BSteps), \+ memberchk(emphasis(_), A)),
    findall(FA, fallback(identifier, symbol_not_found("Sever"), [], [step(lexical, FA, _)], _), [FA1]),
    \+ memberchk(emphasis(_), FA1).

test(a_grammar_rule_looks_up_the_definitions_its_name_holds_first) :-
    features_from_list([tokens(4), content(4), cue(production("attrtext")),
                        text("attrtext = 1*(any non-ATTRIBUTE_ENDS character)"), words(["attrtext", "1*(any", "non-attribute_ends", "character"])], F),
    T = "attrtext = 1*(any non-ATTRIBUTE_ENDS character)",
    plan_features(F, [exact, structural, graph, lexical, vector, hybrid, embedder(lexical)], plan(description, Steps, Why)),
    Why = [because(cls_grammar_production, [cue(production("attrtext"))])|_],
    Steps = [step(lexical, A, evidence), step(lexical, L, evidence)|_],
    memberchk(name_part("attrtext"), A),
    memberchk(text(T), A),
    \+ memberchk(name_part(_), L),
    memberchk(because(st_production_named, [class(description), production("attrtext")|_]), Why).

test(bm25s_hits_follow_the_definitions_a_grammar_rules_name_holds) :-
    features_from_list([tokens(4), content(4), cue(production("attrtext")),
                        text("attrtext = 1*(any non-ATTRIBUTE_ENDS character)"), words(["attrtext", "1*(any", "non-attribute_ends", "character"])], F),
    T = "attrtext = 1*(any non-ATTRIBUTE_ENDS character)",
    Pending = [step(lexical, [text(T)], evidence)],
    forall(member(C, [0, 2]),
           ( next(description, F, [result(step(lexical, [text(T), name_part("attrtext")], evidence), C, [])], Pending, Next, _),
             Next == Pending )).
