/*  label.pl -- truth maintenance: which conclusions are IN, which go OUT,
    and what happens to those that change label.

    Go keeps the conclusions (an answer, a session's retrieval and context
    units, a resolved name, a plan) with their justifications in SQLite,
    and, when the snapshot changes, hands the rules the conclusions whose
    observations changed, antecedents first, as data:

      node(I, Kind, Was, Premises, Antecedents)
        I            an integer, the node's place in this batch
        Kind         answer, retrieval, context, resolved, plan
        Was          in or out: the label before this change
        Premises     premise(P, Observation) pairs:
          source(Path, Hash, Generation)  current(Hash2, Generation2) | absent
          rule(RuleID)                    registered | unregistered | unknown
          embedder(Identity)              current(Identity2)
          rules_version(Version)          current(Version2)
          elsewhere(Terms)                changed(N, Mentioning) | unknown
            Terms is a list of strings (the question's words and names,
            lowercased) or the atom any; N counts the files changed since
            the conclusion was derived, other than its own sources, and
            Mentioning lists (at most 16 of) those whose new bytes contain
            one of the Terms.
        Antecedents  the conclusions it rests on: ante(J, Id) for node J
                     of this batch, held(Label, Id) for one whose label
                     does not change now.

    label_nodes(+Nodes, -Labels) answers label(I, Label, Because, Action,
    ActionBecause) for each node, in order: Label is in or out, Because
    names the rule and the premise that decided it, Action is what the
    owner of the conclusion does about the change (closed vocabulary):

      keep      nothing changed
      withdraw  the conclusion is no longer served (a cached answer); it
                is recomputed only when asked for again
      rederive  its owner re-derives it now (a session's context)
      restore   it is IN again: its premises hold once more, nothing is
                recomputed

    A file's content hash decides, never its generation: restoring a
    file's bytes bumps its generation but makes its conclusions IN again.
*/

:- multifile(rule_id/2).
:- multifile(rule_id_head/1).

% tms_on_out/3 carries its rule ID as its first argument.
rule_id_head(tms_on_out/3).

rule_id(tms_premises_hold, "every premise holds and every antecedent is IN: the conclusion is IN").
rule_id(tms_source_changed, "a source file's bytes hash differently now").
rule_id(tms_source_gone, "a source file the conclusion rests on is gone").
rule_id(tms_rule_gone, "a rule the conclusion was derived by is no longer registered").
rule_id(tms_rules_changed, "the rules changed since the conclusion was derived").
rule_id(tms_embedder_changed, "the embedder changed: its vectors are not comparable").
rule_id(tms_new_match_elsewhere, "a file changed elsewhere now mentions the question's terms: the answer may be incomplete").
rule_id(tms_snapshot_unknown, "the snapshot the conclusion was derived in is not kept: what changed since is unknown").
rule_id(tms_changed_elsewhere, "a conclusion from embedding similarity rests on every file, and one changed").
rule_id(tms_antecedent_out, "a conclusion it rests on is OUT").
rule_id(tms_unchanged, "the label did not change").
rule_id(tms_withdraw_on_out, "an OUT cached answer or plan is withdrawn, recomputed only when asked again").
rule_id(tms_rederive_on_out, "an OUT session conclusion is re-derived for the session's next turn").
rule_id(tms_restore_on_in, "an OUT conclusion whose premises hold again is IN, without recomputation").

%! label_nodes(+Nodes, -Labels) is det.
%  Labels each node in order; a node's antecedents in the batch come
%  before it, so dependants follow their antecedents transitively.
label_nodes(Nodes, Labels) :-
    label_nodes(Nodes, [], Rev),
    reverse(Rev, Labels).

label_nodes([], Acc, Acc).
label_nodes([node(I, Kind, Was, Ps, As)|Ns], Acc, Out) :-
    tms_label(Ps, As, Acc, L, Why),
    tms_action(Kind, Was, L, Act, ActWhy),
    label_nodes(Ns, [label(I, L, Why, Act, ActWhy)|Acc], Out).

%! tms_label(+Premises, +Antecedents, +Done, -Label, -Because) is det.
%  OUT with the first premise that fails, else OUT with the first
%  antecedent that is OUT, else IN.
tms_label(Ps, _, _, out, Why) :-
    member(premise(P, O), Ps),
    tms_fails(P, O, Why), !.
tms_label(_, As, Done, out, because(tms_antecedent_out, [antecedent(Id)])) :-
    member(A, As),
    tms_antecedent(A, Done, out, Id), !.
tms_label(Ps, As, _, in, because(tms_premises_hold, [premises(NP), antecedents(NA)])) :-
    length(Ps, NP),
    length(As, NA).

%! tms_fails(+Premise, +Observation, -Because) is semidet.
%  The premise does not hold under the observation, and why.
tms_fails(source(P, H, _), absent, because(tms_source_gone, [source(P), was(H)])).
tms_fails(source(P, H, _), current(H2, _), because(tms_source_changed, [source(P), was(H), now(H2)])) :-
    H \== H2.
tms_fails(rule(R), unregistered, because(tms_rule_gone, [rule(R)])).
tms_fails(rules_version(V), current(V2), because(tms_rules_changed, [was(V), now(V2)])) :-
    V \== V2.
tms_fails(embedder(E), current(E2), because(tms_embedder_changed, [was(E), now(E2)])) :-
    E \== E2.
tms_fails(elsewhere(any), changed(N, _), because(tms_changed_elsewhere, [changed_files(N)])) :-
    N > 0.
tms_fails(elsewhere(_), unknown, because(tms_snapshot_unknown, [])).
tms_fails(elsewhere(Ts), changed(_, [P|_]), because(tms_new_match_elsewhere, [path(P), terms(Ts)])) :-
    Ts \== any.

%! tms_antecedent(+Antecedent, +Done, -Label, -Id) is semidet.
tms_antecedent(held(L, Id), _, L, Id).
tms_antecedent(ante(J, Id), Done, L, Id) :-
    memberchk(label(J, L, _, _, _), Done).

%! tms_action(+Kind, +Was, +Label, -Action, -Because) is det.
tms_action(Kind, in, out, Act, because(Rule, [kind(Kind)])) :-
    tms_on_out(Rule, Kind, Act), !.
tms_action(Kind, out, in, restore, because(tms_restore_on_in, [kind(Kind)])) :- !.
tms_action(Kind, _, _, keep, because(tms_unchanged, [kind(Kind)])).

%! tms_on_out(?RuleID, ?Kind, ?Action) is nondet.
%  What the owner of a conclusion of Kind does when it goes OUT.
tms_on_out(tms_withdraw_on_out, answer, withdraw).
tms_on_out(tms_withdraw_on_out, plan, withdraw).
tms_on_out(tms_rederive_on_out, retrieval, rederive).
tms_on_out(tms_rederive_on_out, context, rederive).
tms_on_out(tms_rederive_on_out, resolved, rederive).
