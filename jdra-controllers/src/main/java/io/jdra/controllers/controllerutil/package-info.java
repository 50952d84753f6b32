/**
 * What kube-controller-manager's workload controllers share (upstream {@code pkg/controller}:
 * {@code controller_utils.go}, {@code controller_ref_manager.go}): {@link
 * io.jdra.controllers.controllerutil.ControllerExpectations} so a controller does not act twice
 * while its informer lags, {@link io.jdra.controllers.controllerutil.PodControl} to create and
 * delete pods with upstream's events, {@link
 * io.jdra.controllers.controllerutil.ControllerRefManager} to adopt and release objects by
 * controller owner reference, {@link io.jdra.controllers.controllerutil.PodUtil} for pod readiness,
 * availability and the order in which pods are deleted, {@link
 * io.jdra.controllers.controllerutil.LabelSelectors} and {@link
 * io.jdra.controllers.controllerutil.SlowStart}.
 */
package io.jdra.controllers.controllerutil;
