/**
 * Node selector matching as upstream's {@code
 * k8s.io/component-helpers/scheduling/corev1/nodeaffinity}: the one implementation the allocator
 * (slice and device node selection), the scheduler's NodeAffinity plugin and anything else that
 * asks "does this node match" share, so they can never disagree.
 */
package io.jdra.api.nodeaffinity;
