/**
 * Patch engines of the embedded API server, with kube-apiserver's semantics and error statuses:
 * JSON patch (RFC 6902), JSON merge patch (RFC 7386), strategic merge patch and server-side apply
 * with managedFields. Entry point: {@link io.jdra.apiserver.patch.Patcher}.
 *
 * <p>Per-type patch strategies, merge keys and list types come from {@code schema.txt}, generated
 * from the Go API types (k8s.io/api, k8s.io/apimachinery) by the {@code generate-schema.py} script
 * in the test resources; regenerate it when upstream types change.
 */
package io.jdra.apiserver.patch;
