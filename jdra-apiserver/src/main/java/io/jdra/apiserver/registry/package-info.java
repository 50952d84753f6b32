/**
 * What the server serves: one {@link io.jdra.apiserver.registry.ResourceType} per resource (group,
 * versions, names, scope, subresources, table columns, selectable fields), listed in {@code
 * BuiltInResources}. A leaf package: every layer reads it, it uses none.
 *
 * <h2>Adding a resource kind</h2>
 *
 * <p>A kind's behaviour is spread over the layers as upstream's {@code pkg/registry/GROUP/KIND}
 * strategy, printers and admission are; go through the list in order:
 *
 * <ol>
 *   <li>{@code BuiltInResources}: the type (upstream's discovery: group, versions preferred first,
 *       kind, plural, short names, namespaced, subresources, categories), its {@code kubectl get}
 *       columns (upstream's printers; a path, or {@code =name} for a computed one) and its
 *       selectable fields (upstream's field label conversion).
 *   <li>{@code http.Tables}: the computed columns named {@code =name} in step 1 (still a dispatch
 *       by name there, as are conversion and the core admission below: the next candidates to move
 *       into the kind's rules).
 *   <li>{@code patch/schema.txt} and {@code protobuf/proto.txt} (resources): the kind's fields,
 *       merge keys and list types, and protobuf field numbers, generated from the upstream Go
 *       types; without them patches treat lists atomically and protobuf bodies are refused.
 *   <li>{@code convert.Conversion}: when a served version differs from the storage version (still a
 *       dispatch by kind there, as is the core admission below: the next candidates to move into
 *       the kind's rules).
 *   <li>{@code admission}: defaults and validation ({@code CoreDefaults}/{@code CoreAdmission}, or
 *       jdra-api's validation through {@code DraAdmission} for resource.k8s.io), and what the
 *       default admission plugins do to it; {@code NodeRestriction} when nodes write it.
 *   <li>{@link io.jdra.apiserver.registry.KindRules} (in {@code KindRulesBuiltIn}, attached in step
 *       1): what create, update and delete do beyond the generic registry (status the server sets,
 *       fields an update may not change, what holds a deletion, graceful deletion, the default
 *       propagation policy); {@code rest.*REST} for subresources other than status and finalize.
 *   <li>{@code auth.BootstrapPolicy}: which components may use it, as upstream's bootstrap roles;
 *       {@code auth.NodeAuthorizer} when kubelets read it through their pods.
 *   <li>Tests: CRUD, table output with kubectl, and the kind's own rules.
 * </ol>
 */
package io.jdra.apiserver.registry;
