import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// The OpenAPI document is generated from the same schemas that validate requests; `.openapi()` carries
// the names and examples. Every contract module imports `z` from here so the extension is in place.
extendZodWithOpenApi(z);

export { z };
