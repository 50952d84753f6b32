/**
 * Validation of {@code resource.k8s.io/v1} objects equal to kube-apiserver 1.36's.
 *
 * <p>Entry points: {@link io.jdra.api.validation.Validation} (create, update and status update per
 * kind) returning {@link io.jdra.api.validation.FieldError}s that print exactly like upstream's
 * {@code field.Error}. {@link io.jdra.api.validation.NameValidation} and {@link
 * io.jdra.api.validation.MetaValidation} expose the shared name and metadata checks; {@link
 * io.jdra.api.validation.SelectorCompiler} is the hook for CEL compilation errors.
 *
 * <p>Known differences from upstream, all caused by fabric8's model: list fields are empty lists
 * when unset, so an explicitly empty list counts as unset (e.g. an attribute {@code bools: []}); an
 * owner reference without {@code apiVersion}/{@code kind} reads as {@code v1}/{@code
 * OwnerReference}; opaque parameters are measured on their compact JSON re-serialisation; complex
 * bad values print as {@code v1} JSON. Map entries are checked in map order (Go's is random).
 */
package io.jdra.api.validation;
