/**
 * The Java twin of upstream dra-example-driver's {@code cmd/dra-example-controller}: a
 * control-plane controller that watches ResourceClaims allocated from its driver and runs plugins
 * on them. The one plugin upstream has, {@link
 * io.jdra.exampledriver.controller.BindingConditionsPlugin} ({@code --enable-plugin
 * BindingConditions}, the chart's {@code controller.plugins}), sets the binding conditions the
 * kubelet plugin publishes with {@code --binding-conditions} to True, so the scheduler's PreBind
 * lets the pod bind (DRADeviceBindingConditions).
 *
 * <p>It runs as the chart's service account, not as a node: it needs {@code get}, {@code list} and
 * {@code watch} on {@code resourceclaims} and {@code update} on {@code resourceclaims/status}.
 */
package io.jdra.exampledriver.controller;
