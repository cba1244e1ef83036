% Tests for typeword.pl: a noun phrase naming a kind of type ranks types
% first; a verb and its object, or a phrase past its end, do not.

all_strategies_available([exact, structural, graph, lexical, vector, hybrid]).

text_steps(Q, Class, Steps) :-
    query_features(Q, F),
    all_strategies_available(Avail),
    plan_features(F, Avail, plan(Class, Steps, _)).

types_first(Q) :-
    text_steps(Q, _, Steps),
    member(step(S, A, evidence), Steps),
    memberchk(S, [lexical, hybrid, vector]),
    memberchk(types(first), A), !.

test(a_noun_phrase_naming_a_kind_of_type_ranks_types_first_with_its_rule) :-
    query_features("Collection of HTTP cookies.", F),
    all_strategies_available(Avail),
    plan_features(F, Avail, plan(conceptual, Steps, [_|Whys])),
    forall(member(step(S, A, evidence), Steps),
           ( memberchk(S, [lexical, hybrid, vector]) -> memberchk(types(first), A) ; true )),
    member(because(_, Ps), Whys),
    memberchk(because(rk_types_first, [class(conceptual), noun("collection")]), Ps), !.

test(noun_phrases_of_every_shape_are_type_worded) :-
    forall(member(Q, ["A class to hold ONE (key, value) pair.",
                      "Basic message object.",
                      "HTTP request handler base class.",
                      "A container class for a set of Morsels.",
                      "Error while parsing headers.",
                      "A file-ish object that can have new data loaded into it.",
                      "Cookie container; also parses headers."]),
           types_first(Q)).

test(a_verb_and_its_object_is_not_type_worded) :-
    forall(member(Q, ["Log an error.",
                      "Guess the type of a file.",
                      "Return the message's content type.",
                      "Copy all data between two file objects.",
                      "Create an object representing an address group.",
                      "Log error.",
                      "Handle error.",
                      "Set cookie object."]),
           \+ types_first(Q)).

test(a_phrase_headed_by_another_noun_is_not_type_worded) :-
    forall(member(Q, ["Many error types are not serializable since they tend to be Go structs",
                      "simple flag server",
                      "Error message formatting helpers."]),
           \+ types_first(Q)).

test(a_type_noun_past_the_opening_phrase_does_not_count) :-
    forall(member(Q, ["Issue 14981: MaxBytesReader's return error wasn't sticky.",
                      "In v1, duplicate JSON object names are permitted by default",
                      "Test whether a file-like object is a text or a binary stream."]),
           \+ types_first(Q)).

test(an_identifier_question_is_left_as_it_is) :-
    text_steps("where is CookieJar defined?", _, Steps),
    forall(member(step(_, A, _), Steps), \+ memberchk(types(first), A)).

test(opening_phrase_stops_at_its_end_word_and_at_seven_words) :-
    opening_phrase(["collection", "of", "http", "cookies"], ["collection"]),
    opening_phrase(["in", "v1"], []),
    opening_phrase(["a", "b", "c", "d", "e", "f", "g", "h"], ["a", "b", "c", "d", "e", "f", "g"]).
