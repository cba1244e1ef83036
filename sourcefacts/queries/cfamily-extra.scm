; cfamily-extra.scm — rlm's own additions shared by tree-sitter-c's and
; tree-sitter-cpp's tags.scm (the C++ grammar keeps C's node names for
; everything here). c-extra.scm and cpp-extra.scm follow it with what is
; their own (calls; namespaces, templates and the rest of C++).
;
; Only what tags.scm lacks: #include imports, macros, function definitions
; and prototypes of any declarator shape (tags.scm captures only the
; function declarator, and only when its name is a bare identifier or one
; level of qualified name; these patterns capture the enclosing definition
; or declaration, and the extractor keeps the widest capture of a name),
; file-scope variables, typedefs, fields, enumerators, unions, and the
; comments from which doc comments are found.
;
; @declarator: the extractor finds the name in it (through pointer,
; reference, parenthesized, attributed, array and init declarators and
; qualified names of any depth: `int geo::Shape::area()`, `void
; Box<T>::put(T)`, `Conn::~Conn()`, `Conn::operator==`, `Conn::operator
; bool()`; a qualified name's scopes give the method's receiver and
; container), and the pattern's kind says what the declaration is: a
; function definition; a prototype (a declaration that declares a function,
; kept as a declaration so that the definition, with its body, ranks
; first; one that declares no function is dropped); a variable (at file
; scope, also inside #if blocks there; one inside a function, in an #if
; block there, is dropped; `extern` ones are declarations); a field (or,
; declaring a function, an in-class method declaration: a prototype); a
; type (a typedef).

(preproc_include
  path: (_) @import.path) @import

(preproc_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro

; Function definitions and prototypes.
(function_definition
  declarator: (_) @declarator) @definition.function

(declaration
  declarator: (_) @declarator) @definition.prototype

; Variables at file scope, also inside #if blocks (a variable inside a
; function, in an #if block there, is dropped by the extractor): a
; declaration that declares no function. `extern` ones are declarations.
(translation_unit
  (declaration
    declarator: (_) @declarator) @definition.variable)

(preproc_if
  (declaration
    declarator: (_) @declarator) @definition.variable)

(preproc_ifdef
  (declaration
    declarator: (_) @declarator) @definition.variable)

(preproc_else
  (declaration
    declarator: (_) @declarator) @definition.variable)

(preproc_elif
  (declaration
    declarator: (_) @declarator) @definition.variable)

; Typedefs of any declarator shape (`typedef void (*cb)(int);`, `typedef
; int vec[3];`; tags.scm matches a bare name only).
(type_definition
  declarator: (_) @declarator) @definition.type

; Struct and union fields; enumerators.
(field_declaration
  declarator: (_) @declarator) @definition.field

(enumerator
  name: (identifier) @name) @definition.constant

; Unions wherever they are defined (tags.scm: only in a declaration).
(union_specifier
  name: (type_identifier) @name
  body: (_)) @definition.class

(comment) @comment
