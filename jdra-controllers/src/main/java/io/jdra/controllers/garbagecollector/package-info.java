/**
 * kube-controller-manager's garbage collector ({@code pkg/controller/garbagecollector}), registered
 * as {@code garbage-collector-controller}: a graph of owner references built from metadata-only
 * informers of every deletable resource ({@link
 * io.jdra.controllers.garbagecollector.GraphBuilder}), and workers that delete objects whose owners
 * are gone and carry out foreground and orphan deletion. The API server only records the
 * propagation policy as a finalizer.
 */
package io.jdra.controllers.garbagecollector;
