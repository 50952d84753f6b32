/**
 * Helpers over ResourceClaims as upstream's {@code
 * k8s.io/dynamic-resource-allocation/resourceclaim} package: which claim a pod uses, ownership and
 * reservation checks, request references and device taint toleration.
 */
package io.jdra.api.resourceclaim;
