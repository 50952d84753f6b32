/**
 * kube-controller-manager's namespace controller ({@code pkg/controller/namespace}), registered as
 * {@code namespace-controller}: empties a namespace being deleted, reports progress in its
 * conditions and removes the {@code kubernetes} finalizer, after which the API server removes it.
 */
package io.jdra.controllers.namespace;
