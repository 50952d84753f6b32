/** Kubernetes resource quantities ({@code resource.Quantity}) with upstream semantics. */
package io.jdra.api.quantity;
