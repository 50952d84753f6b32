/** Defaulting of {@code resource.k8s.io/v1} objects as the Kubernetes API server applies it. */
package io.jdra.api.defaulting;
