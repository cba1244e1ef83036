/*  validate.pl -- the names of the router's validation decisions.

    Go validates every accepted result independently of how it was reached
    (tools.Executor.Check against the intent's trusted binding, and the
    slot parsers), then asks validation/3 for the decision's because/2 so
    that the explanation names a registered rule and harness authors can
    rename it; Go decodes only the shape.

      validation(+Check, +Premises, -Because)
        Check one of: passed, unknown_intent, bad_slot, bad_arguments,
        capability_denied, side_effect_denied, bad_model_output,
        unknown_value
    (a model's accept is guarded first: guard.pl; a catalog's verdict on a
    value has its own rules: values.pl)
*/

:- multifile(rule_id/2).

rule_id(val_passed, "the intent exists, its arguments match its slot schema, its capabilities and side effect are allowed").
rule_id(val_unknown_intent, "no registered intent has that name").
rule_id(val_bad_slot, "a slot's words are not a value of its type").
rule_id(val_bad_arguments, "the arguments do not match the intent's slot schema").
rule_id(val_capability_denied, "the intent needs a capability that is not granted").
rule_id(val_side_effect_denied, "the intent's side effect is not allowed").
rule_id(val_bad_model_output, "the model's answer is not one JSON object of the result family").
rule_id(val_unknown_value, "the host's value check refused a slot's value (it does not have what the value names): ask for it again").

%! validation(+Check, +Premises, -Because) is semidet.
validation(passed, P, because(val_passed, P)).
validation(unknown_intent, P, because(val_unknown_intent, P)).
validation(bad_slot, P, because(val_bad_slot, P)).
validation(bad_arguments, P, because(val_bad_arguments, P)).
validation(capability_denied, P, because(val_capability_denied, P)).
validation(side_effect_denied, P, because(val_side_effect_denied, P)).
validation(bad_model_output, P, because(val_bad_model_output, P)).
validation(unknown_value, P, because(val_unknown_value, P)).
