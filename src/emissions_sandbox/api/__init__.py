"""HTTP routers of the sandbox, one module per resource."""
