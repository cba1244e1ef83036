/*  typeword.pl -- a noun phrase naming a kind of type describes a type.

    A class's docstring (and a type's doc comment) is worded as a noun
    phrase whose head says what kind of thing it is: "Collection of HTTP
    cookies." (CookieJar), "A class to hold ONE (key, value) pair."
    (Morsel), "Basic message object." (Message), "HTTP request handler
    base class." A function's is worded as a verb and its object: "Log
    an error.", "Guess the type of a file.", "Return the message's
    content type." The opening phrase tells them apart: its words up to
    the first word that ends it (a preposition, a relative word or an
    auxiliary: phrase_end/1, "of" in "collection of http cookies") or
    the first clause punctuation (Go ends the opening(Ws) feature
    there: "Issue 14981: …"), at most seven. A description is about a
    type when that phrase's head (its last word) is a type noun
    (type_noun/1: class, object, collection, registry, …), it has no
    determiner after its first word ("log an error": a verb, then
    its object "an error"; "a class to hold": the determiner opens the
    noun phrase) and it does not open with an imperative verb followed
    by more words (imperative_verb/1: "Log error.", "Set cookie
    object.", where no article marks the object).

    Such a description's text steps carry types(first) (rk_types_first):
    Go ranks the step's type definitions before its other hits and
    brings in the type that two or more of its hits are members of
    (retrieval.TypesFirst), each part in BM25's order, demoted roles
    still last. Without doc comments, the words of a class are the
    names of its members: "cookies" is what CookieJar's methods are
    named after, while the class's own name holds the word once.
    Measured with rlm eval on the doc-stripped task of the Python
    standard library's http and email packages and Go's encoding/json
    and net/http (docs/BENCHMARKS.md).

    Extension hooks (declare them multifile in your own file):
      extra_type_noun(Word)    another word (a lowercase string) that
                               names a kind of type, e.g. "model"
*/

:- multifile(rule_id/2).
:- multifile(extra_type_noun/1).
:- dynamic(extra_type_noun/1).

rule_id(rk_types_first, "a description worded as a noun phrase naming a kind of type (\"Collection of HTTP cookies\"): types rank first, and a type that several hits are members of joins them").

%! type_noun(?Word) is nondet.
%  A word (lowercase string) that names a kind of type as the head of a
%  class's or a type's description. Singular: a plural head ("error
%  types", "objects") is about many things, not one definition; roles
%  that functions play as often as types ("server", "handler",
%  "parser") are left out.
type_noun(W) :- extra_type_noun(W).
type_noun("class").
type_noun("object").
type_noun("type").
type_noun("struct").
type_noun("structure").
type_noun("interface").
type_noun("collection").
type_noun("container").
type_noun("wrapper").
type_noun("mixin").
type_noun("exception").
type_noun("error").
type_noun("defect").
type_noun("enum").
type_noun("enumeration").
type_noun("registry").
type_noun("record").

%! phrase_end(?Word) is nondet.
%  A word that ends a sentence's opening phrase: a preposition, a
%  relative or subordinating word, a copula or modal.
phrase_end("of").
phrase_end("for").
phrase_end("to").
phrase_end("that").
phrase_end("which").
phrase_end("with").
phrase_end("while").
phrase_end("from").
phrase_end("in").
phrase_end("on").
phrase_end("by").
phrase_end("into").
phrase_end("when").
phrase_end("where").
phrase_end("who").
phrase_end("whose").
phrase_end("used").
phrase_end("is").
phrase_end("are").
phrase_end("can").
phrase_end("may").
phrase_end("should").
phrase_end("will").
phrase_end("was").
phrase_end("were").
phrase_end("be").
phrase_end("has").
phrase_end("have").
phrase_end("between").
phrase_end("about").
phrase_end("after").
phrase_end("before").
phrase_end("at").
phrase_end("as").
phrase_end("over").
phrase_end("under").
phrase_end("through").
phrase_end("without").
phrase_end("within").
phrase_end("across").
phrase_end("against").
phrase_end("during").
phrase_end("than").
phrase_end("until").
phrase_end("upon").
phrase_end("via").
phrase_end("if").
phrase_end("whether").

%! imperative_verb(?Word) is nondet.
%  A verb a function's docstring opens with, in the imperative (PEP 257:
%  "Return the pathname", "Log error."): followed by more words, it
%  opens a verb and its object, not a noun phrase, though no article
%  says so ("Log error.", "Set cookie object.").
imperative_verb(W) :- memberchk(W, ["add", "append", "apply", "attach", "build", "call", "check", "clear", "close",
    "collect", "compute", "convert", "copy", "create", "decode", "delete", "drop", "emit", "encode", "ensure",
    "escape", "extract", "fetch", "find", "flush", "fold", "format", "gather", "generate", "get", "guess",
    "handle", "initialize", "insert", "iterate", "join", "load", "log", "look", "make", "map", "merge",
    "normalize", "open", "parse", "perform", "pop", "print", "process", "push", "put", "quote", "raise",
    "read", "receive", "register", "reload", "remove", "render", "replace", "report", "reset", "resolve",
    "return", "run", "save", "search", "send", "serve", "set", "skip", "sort", "split", "start", "stop",
    "store", "strip", "translate", "unquote", "update", "validate", "wrap", "write", "yield"]).

%! determiner(?Word) is nondet.
%  A word that opens a noun phrase: an article, demonstrative,
%  quantifier or possessive.
determiner("a").
determiner("an").
determiner("the").
determiner("this").
determiner("these").
determiner("those").
determiner("all").
determiner("each").
determiner("every").
determiner("some").
determiner("any").
determiner("its").
determiner("their").
determiner("no").

%! opening_phrase(+Words, -Phrase) is det.
%  Phrase is Words up to its first phrase_end/1 word, at most seven.
opening_phrase(Ws, P) :-
    opening_phrase(Ws, 7, P).

opening_phrase([], _, []).
opening_phrase([W|_], _, []) :-
    phrase_end(W), !.
opening_phrase(_, 0, []) :- !.
opening_phrase([W|Ws], N, [W|P]) :-
    N1 is N - 1,
    opening_phrase(Ws, N1, P).

%! type_worded(+Features, -Noun) is semidet.
%  The query's opening phrase is a noun phrase naming a kind of type:
%  no determiner after its first word, and its head, the last word (an
%  English noun phrase's head noun comes last: "many error types" is
%  about types, "basic message object" about an object), is the type
%  noun Noun.
type_worded(F, Noun) :-
    feature(opening(Ws), F),
    opening_phrase(Ws, Phrase),
    Phrase = [First|Rest],
    \+ ( member(D, Rest), determiner(D) ),
    \+ ( Rest = [_|_], imperative_verb(First) ),
    last(Phrase, Noun),
    type_noun(Noun), !.

%! rank_types(+Class, +Features, +Step, +Because, -Step2, -Because2) is det.
%  A text evidence step (lexical, hybrid or vector) of a conceptual or
%  description query worded as a type (type_worded/2) gains types(first),
%  with because(rk_types_first, [class(Class), noun(Noun)]) among its
%  rule's premises. Any other step is left as it is.
rank_types(Class, F, step(S, A, evidence), because(R, Ps), step(S, A2, evidence), because(R, Ps2)) :-
    memberchk(Class, [conceptual, description]),
    memberchk(S, [lexical, hybrid, vector]),
    memberchk(text(_), A),
    \+ memberchk(name_part(_), A),
    \+ memberchk(types(_), A),
    type_worded(F, Noun), !,
    append(A, [types(first)], A2),
    append(Ps, [because(rk_types_first, [class(Class), noun(Noun)])], Ps2).
rank_types(_, _, Step, Why, Step, Why).
