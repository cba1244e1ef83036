/*  wording.pl -- a sentence worded as a description is a description.

    Doc-comment style sentences ("WriteBufferSize specifies the size of the
    write buffer used when writing to the transport", "DNSStart is called
    when a DNS lookup begins") hold relation and cue words ("used",
    "called", "implemented") without asking for a relation: the word after
    them names no symbol. A sentence of six or more content words (four
    when it has relation words) is a
    description (class description) unless its relation's object is a name
    by its shape (a lowercase word the snapshot knows is still a word in
    a sentence this long): the names it
    mentions are context for the search text, not the answer (issue 10,
    fault 2).

    A sentence worded as a declaration's doc comment
    (cue(description(Subject)): Go's bridge.docWording, a subject and a
    third-person verb, "Tokens returns an iterator over the reference
    tokens …", "UnmarshalJSON sets *m to a copy of data"; or, with the
    subject "", a sentence opening with "Return" or "Returns", Python's,
    Javadoc's and Rust's form: "Return a reference to the payload") is a
    description with a content word or more, whatever names or relation
    words it holds: "reference", "use" and "declared" in such a sentence are words
    of the description, and the names it mentions boost the text's BM25
    score (the name column weighs most) instead of being looked up. Its
    subject is what it describes, by the convention the wording follows:
    the definitions named Subject come first, ranked by the whole text
    (an exact step with text(T): Go orders the name's definitions by their
    BM25 rank for T), then BM25's other hits. Without doc comments to
    match (code whose comments were stripped or never written) the
    subject's name is the strongest evidence left. Among the subject's
    definitions a namesake in an internal package (Go's internal/: the
    knowledge base marks each definition, retrieval.IsInternal) comes
    after the public ones (demote(internal), rk_public_namesake_first):
    doc sentences describe the API, and an internal package's
    same-named flag or helper is how the API is implemented
    (encoding/json's jsontext.AllowInvalidUTF8 and
    internal/jsonflags.AllowInvalidUTF8). A subject only internal
    packages define keeps its order (every namesake is demoted alike).

    A query that opens with a grammar rule (cue(production(Name)):
    bridge.production, "attrtext = 1*(any non-ATTRIBUTE_ENDS character)",
    "message-id = \"Message-ID:\" msg-id CRLF", the RFC grammar lines
    that open a parser function's docstring) is a description of the
    definition that parses Name: the definitions whose name holds
    Name's words (name_part(Name): get_attrtext, parse_message_id),
    ranked by the whole text, come first, then BM25's other hits
    (st_production_named). The rule's right-hand side names other
    rules and tokens (ATTRIBUTE_ENDS), which BM25 alone ranks above the
    parser of the rule itself.

    A description's text steps carry emphasis(doc): their BM25 weighs
    doc comments more than by default (a description is compared with
    descriptions; retrieval.EmphasisDoc), so that a long doc comment holding
    the description's words is not outranked by a short one for its
    length. A description is answered by hybrid search (BM25 and embeddings fused)
    when the backend's vectors are trusted (trusted_vectors/1, vectors.pl:
    a learned or unknown embedder); with a lexical embedder (the offline
    default) by BM25 over the whole text first, and by hybrid search only
    when BM25 finds nothing: fusing a lexical embedder does not beat BM25
    on descriptions (rlm eval, docs/BENCHMARKS.md). Clauses of the
    extension hooks of classify.pl and strategy.pl.
*/

:- multifile(rule_id/2).
:- multifile(extra_class_rule/4).
:- multifile(extra_strategy/4).
:- multifile(extra_strategy/5).
:- multifile(extra_verdict/5).

rule_id(cls_doc_wording, "a sentence worded as a doc comment (a subject and a third-person verb) with a content word or more: a description about its subject; its other names and relation words are context").
rule_id(cls_sentence_description, "a sentence of six or more content words (four with relation words whose object is no name): a description; the names it mentions are context").
rule_id(st_description_bm25, "a description with a lexical embedder (or none), answered by BM25 over its whole text").
rule_id(st_description_hybrid, "a description BM25 found nothing for, answered by hybrid search").
rule_id(st_description_subject, "a description worded as a doc comment: the definitions named by its subject first, ranked by its text").
rule_id(rk_public_namesake_first, "a doc-worded description's subject: a namesake in an internal package ranks after the public definitions, whose documentation the sentence reads like").
rule_id(ev_subject_looked_up, "a doc-worded description's subject was looked up; BM25's other hits follow").
rule_id(cls_grammar_production, "a query that opens with a grammar rule (name = ...): a description of the definition that parses that name").
rule_id(st_production_named, "a grammar rule's description: the definitions whose name holds the rule's name first, ranked by its text").
rule_id(ev_production_named, "the definitions named by a grammar rule's name were looked up; BM25's other hits follow").
rule_id(st_description_trusted_hybrid, "a description, answered by hybrid search: the backend's vectors are trusted").

extra_class_rule(cls_grammar_production, F, description, [cue(production(N))]) :-
    feature(cue(production(N)), F).
extra_class_rule(cls_doc_wording, F, description, [cue(description(S)), content(N)]) :-
    feature(cue(description(S)), F),
    feature(content(N), F), N >= 1.
extra_class_rule(cls_sentence_description, F, description, [content(N)|Ps]) :-
    feature(content(N), F), N >= 4,
    unnamed_relation(F, Ps, Min),
    N >= Min.

%! unnamed_relation(+Features, -Premises, -MinContent) is semidet.
%  The query has no relation (then six content words make a
%  description), or a relation whose object is not a name (then four do).
unnamed_relation(F, [], 6) :-
    feature(relation(none), F), !.
unnamed_relation(F, [relation(R), object_word(O)], 4) :-
    feature(relation(R), F),
    feature(relation_object(O), F),
    \+ named_object(F, O).

%  A name by its shape: in a sentence this long, a lowercase word the
%  snapshot knows ("connection", "result") is still a word.
named_object(F, O) :-
    feature(idents(Ids), F),
    member(id(O, Shape), Ids),
    strong_shape(Shape), !.

extra_strategy(description, F, step(exact, [name(S), text(T), emphasis(doc), demote(internal)], evidence),
               because(st_description_subject, [class(description), subject(S),
                                                because(rk_public_namesake_first, [subject(S)])])) :-
    feature(cue(description(S)), F),
    S \== "",
    feature(text(T), F).
extra_strategy(description, F, step(lexical, [text(T), name_part(N), emphasis(doc)], evidence),
               because(st_production_named, [class(description), production(N)])) :-
    feature(cue(production(N)), F),
    feature(text(T), F).
extra_strategy(description, F, Avail, step(lexical, [text(T2), emphasis(doc)], evidence),
               because(st_description_bm25, [class(description)|Xs])) :-
    \+ trusted_hybrid(Avail),
    feature(text(T), F),
    expand_text(F, T, T2, Xs).
extra_strategy(description, F, Avail, step(hybrid, [text(T2), emphasis(doc)], evidence),
               because(st_description_hybrid, [class(description)|Xs])) :-
    \+ trusted_hybrid(Avail),
    feature(text(T), F),
    expand_text(F, T, T2, Xs).
extra_strategy(description, F, Avail, step(hybrid, [text(T2), emphasis(doc)], evidence),
               because(st_description_trusted_hybrid, [class(description), available(hybrid)|Xs])) :-
    trusted_hybrid(Avail),
    feature(text(T), F),
    expand_text(F, T, T2, Xs).

%! trusted_hybrid(+Available) is semidet.
%  The backend offers hybrid search and its vectors are trusted.
trusted_hybrid(Avail) :-
    memberchk(hybrid, Avail),
    trusted_vectors(Avail).

extra_verdict(description, _, result(step(exact, _, evidence), C, _), continue,
              because(ev_subject_looked_up, [count(C)])).
extra_verdict(description, _, result(step(lexical, A, evidence), C, _), continue,
              because(ev_production_named, [count(C)])) :-
    memberchk(name_part(_), A).
