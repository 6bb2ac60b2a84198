// GENERATED FILE: do not edit. Regenerate with `npm run gen:types` after changing spec/openapi.yaml.
// Types of the Decision Service API, produced by openapi-typescript from the spec.
/* eslint-disable */
export interface paths {
    "/v1/decide": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer 1 to 16 typed questions about one context.
         * @description Sends one context and 1 to 16 questions; returns one answer per question id sent.
         *     Unknown fields anywhere in the body are rejected with 400 INVALID_REQUEST; a `video`
         *     part with 400 UNSUPPORTED_MODALITY. The body is at most 256 KiB. Media limits per
         *     request: 4 images, 2 documents, 1 audio clip.
         */
        post: operations["decide"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/feedback": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report, per question, whether an answer was correct.
         * @description The seed shows only the purpose of this endpoint: per question, whether an answer was
         *     correct, linked to the decision by its request id. Request, response and statuses are
         *     the reference choice (open point feedback-shape).
         */
        post: operations["submitFeedback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * List available models.
         * @description Lists the models that answer decisions. `svc-one-v1` is the current model;
         *     `svc-one-v0` and `svc-one-v0.3` are its aliases. The response shape and status are the
         *     reference choice (open point models-shape).
         */
        get: operations["listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a media file that later decisions reference.
         * @description The body is the raw file (not JSON, not multipart); `Content-Type` is the file's MIME
         *     type and is checked against the content. Files over their family's size limit are
         *     413 ASSET_TOO_LARGE; an unsupported type, or content that does not match the declared
         *     type, is 415 UNSUPPORTED_MIME_TYPE. The asset expires 24 hours after upload by
         *     default. Whether the 256 KiB body limit applies here is not shown (open point
         *     upload-body-limit).
         */
        post: operations["uploadAsset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{asset_id}": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path: {
                /**
                 * @description The asset's id.
                 * @example asset_9c1d2e3f4a5b6c7d
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        /**
         * Read an asset's metadata (never its content).
         * @description Returns the same Asset object as upload. Never returns the file content. The success status is the reference choice (open point asset-read-delete-status).
         */
        get: operations["getAsset"];
        put?: never;
        post?: never;
        /**
         * Delete an asset before it expires.
         * @description Only the owning project may delete an asset. The success status is the reference choice (open point asset-read-delete-status).
         */
        delete: operations["deleteAsset"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness check. No key needed.
         * @description For liveness checks; needs no API key. The body is the reference choice (open point service-endpoint-bodies).
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /**
         * The OpenAPI 3.1 description of this API. No key needed.
         * @description Returns the OpenAPI 3.1 description of the API (for the reference server, the JSON form of this document). Needs no API key.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description The body of POST /v1/decide. Unknown fields are rejected with 400 INVALID_REQUEST; the body is at most 256 KiB.
         * @example {
         *       "context": "I was charged twice for my order and want my money back.",
         *       "questions": {
         *         "topic": {
         *           "type": "choice",
         *           "options": {
         *             "billing": "Payments, refunds and invoices",
         *             "shipping": "Delivery and tracking",
         *             "other": ""
         *           }
         *         }
         *       }
         *     }
         */
        DecideRequest: {
            context: components["schemas"]["Context"];
            questions: components["schemas"]["Questions"];
        };
        /** @description A text string of 1 to 8,000 characters, or a list of 1 to 16 content parts read in the order given. A string context behaves the same as it always has. */
        Context: components["schemas"]["TextContext"] | components["schemas"]["ContentParts"];
        /**
         * @description The context as one text string.
         * @example I was charged twice for my order and want my money back.
         */
        TextContext: string;
        /**
         * @description Content parts, read in the order given; text parts are joined with newlines. At most 4
         *     image, 2 document and 1 audio parts per request (over that: TOO_MANY_IMAGES,
         *     TOO_MANY_DOCUMENTS, TOO_MANY_AUDIO; counts a schema cannot express, see
         *     `x-media-limits`).
         * @example [
         *       {
         *         "type": "text",
         *         "id": "intro",
         *         "text": "Is this receipt a duplicate of the one I sent yesterday?"
         *       },
         *       {
         *         "type": "image",
         *         "id": "receipt",
         *         "asset_id": "asset_9c1d2e3f4a5b6c7d"
         *       }
         *     ]
         */
        ContentParts: components["schemas"]["ContentPart"][];
        /**
         * @description One part of a list context, discriminated by `type`. Every part may carry an optional
         *     `id` that is echoed only in errors. No other fields are accepted: there is no `url`
         *     field and no inline file bytes. A part of type `video` is rejected with 400
         *     UNSUPPORTED_MODALITY rather than INVALID_REQUEST (see `x-unsupported-part-types`).
         *     A media part references an asset of its own family, except that a document part may
         *     also reference a page image (see `x-part-families`).
         */
        ContentPart: components["schemas"]["TextPart"] | components["schemas"]["ImagePart"] | components["schemas"]["DocumentPart"] | components["schemas"]["AudioPart"];
        /**
         * @description Optional caller label of a content part, up to 100 characters, echoed only in errors.
         * @example receipt-scan-1
         */
        PartId: string;
        /**
         * @description A text part of 1 to 8,000 characters.
         * @example {
         *       "type": "text",
         *       "id": "intro",
         *       "text": "Please classify the attached receipt."
         *     }
         */
        TextPart: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "text";
            id?: components["schemas"]["PartId"];
            text: string;
        };
        /**
         * @description References an uploaded image (PNG, JPEG or WebP) of the same project.
         * @example {
         *       "type": "image",
         *       "id": "photo",
         *       "asset_id": "asset_9c1d2e3f4a5b6c7d"
         *     }
         */
        ImagePart: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "image";
            id?: components["schemas"]["PartId"];
            asset_id: components["schemas"]["AssetId"];
        };
        /**
         * @description References an uploaded document of the same project, or a page image such as a scan (PNG, JPEG or WebP).
         * @example {
         *       "type": "document",
         *       "asset_id": "asset_contract_2026_07"
         *     }
         */
        DocumentPart: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "document";
            id?: components["schemas"]["PartId"];
            asset_id: components["schemas"]["AssetId"];
        };
        /**
         * @description References an uploaded audio clip of the same project.
         * @example {
         *       "type": "audio",
         *       "id": "voicemail",
         *       "asset_id": "asset_voice-0001"
         *     }
         */
        AudioPart: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "audio";
            id?: components["schemas"]["PartId"];
            asset_id: components["schemas"]["AssetId"];
        };
        /**
         * @description `asset_` followed by 8 to 64 letters, digits, `_` or `-`.
         * @example asset_9c1d2e3f4a5b6c7d
         */
        AssetId: string;
        /**
         * @description 1 to 16 questions. Each key is a question id chosen by the caller and returned in the answers exactly as sent; format and count limits of ids are not shown (open point id-format-and-count).
         * @example {
         *       "topic": {
         *         "type": "choice",
         *         "options": {
         *           "billing": "Payments and refunds",
         *           "shipping": "Delivery",
         *           "other": ""
         *         }
         *       }
         *     }
         */
        Questions: {
            [key: string]: components["schemas"]["Question"];
        };
        /** @description A typed question, discriminated by `type`. */
        Question: components["schemas"]["ChoiceQuestion"] | components["schemas"]["NoulQuestion"] | components["schemas"]["MultiQuestion"] | components["schemas"]["ScoreQuestion"];
        /**
         * @description Pick one option. `options` maps option id to a description string; an empty description is allowed.
         * @example {
         *       "type": "choice",
         *       "options": {
         *         "billing": "Payments and refunds",
         *         "shipping": "Delivery",
         *         "other": ""
         *       }
         *     }
         */
        ChoiceQuestion: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "choice";
            options: components["schemas"]["ChoiceOptions"];
        };
        /**
         * @description Option id to description string (may be empty). Option ids are returned exactly as sent.
         * @example {
         *       "billing": "Payments and refunds",
         *       "other": ""
         *     }
         */
        ChoiceOptions: {
            [key: string]: string;
        };
        /**
         * @description A question answered from `instructions`. `instructions` is present in every shown request; whether it is required is not shown (open point noul-instructions-required), so the schema does not require it.
         * @example {
         *       "type": "noul",
         *       "instructions": "Does the customer ask for a refund?"
         *     }
         */
        NoulQuestion: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "noul";
            instructions?: string;
        };
        /**
         * @description Pick any number of options. `options` maps option id to null; `instructions` is optional.
         * @example {
         *       "type": "multi",
         *       "options": {
         *         "refund": null,
         *         "damaged_item": null,
         *         "late_delivery": null
         *       },
         *       "instructions": "Which issues does the customer raise?"
         *     }
         */
        MultiQuestion: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "multi";
            options: components["schemas"]["MultiOptions"];
            instructions?: string;
        };
        /**
         * @description Option id to null.
         * @example {
         *       "refund": null,
         *       "late_delivery": null
         *     }
         */
        MultiOptions: {
            [key: string]: null;
        };
        /**
         * @description The fields of a score question are not shown in the seed; this is the reference choice (open point score-question-fields).
         * @example {
         *       "type": "score",
         *       "instructions": "How urgent is the customer's request?"
         *     }
         */
        ScoreQuestion: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "score";
            /** @description What to score, from 0 (not at all) to 1 (fully). */
            instructions: string;
        };
        /**
         * @description One answer per question id sent. Does not repeat the request id (it is in the X-Request-ID header). Responses may gain optional fields; callers ignore fields they do not recognise.
         * @example {
         *       "model": "svc-one-v1",
         *       "answers": {
         *         "topic": {
         *           "type": "choice",
         *           "choice": "billing",
         *           "confidence": 0.6,
         *           "probabilities": {
         *             "billing": 0.74,
         *             "shipping": 0.12,
         *             "other": 0.14
         *           },
         *           "abstain": false,
         *           "abstention_status": "advisory"
         *         }
         *       },
         *       "usage": {
         *         "input_tokens": 41
         *       }
         *     }
         */
        DecideResponse: {
            /** @description Name of the model that answered. */
            model: string;
            /** @description Question id, exactly as sent, to its answer. Which answer shape goes with which question type is checked outside the schema. */
            answers: {
                [key: string]: components["schemas"]["Answer"];
            };
            usage: components["schemas"]["Usage"];
        };
        /** @description An answer, discriminated by `type`. Only the choice answer is shown in the seed; the other shapes are the reference choice (open point answer-shapes). */
        Answer: components["schemas"]["ChoiceAnswer"] | components["schemas"]["NoulAnswer"] | components["schemas"]["MultiAnswer"] | components["schemas"]["ScoreAnswer"];
        /**
         * @description The answer to a choice question. `confidence` is the top-1 probability minus the top-2
         *     probability: a margin, not the probability that the answer is correct. When `abstain`
         *     is true, `choice` is null and `probabilities` remain. For media inputs, `abstain` is
         *     advisory: a hint, not a validated guarantee.
         * @example {
         *       "type": "choice",
         *       "choice": "billing",
         *       "confidence": 0.6,
         *       "probabilities": {
         *         "billing": 0.74,
         *         "shipping": 0.12,
         *         "other": 0.14
         *       },
         *       "abstain": false,
         *       "abstention_status": "advisory"
         *     }
         * @example {
         *       "type": "choice",
         *       "choice": null,
         *       "confidence": 0.02,
         *       "probabilities": {
         *         "billing": 0.35,
         *         "shipping": 0.33,
         *         "other": 0.32
         *       },
         *       "abstain": true,
         *       "abstention_status": "advisory"
         *     }
         */
        ChoiceAnswer: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "choice";
            /** @description The selected option id, exactly as sent; null when `abstain` is true. */
            choice: string | null;
            /** @description Top-1 probability minus top-2 probability. */
            confidence: number;
            /** @description Option id to probability, one entry per option sent. */
            probabilities: {
                [key: string]: number;
            };
            /** @description True when the model is not confident enough. */
            abstain: boolean;
            /**
             * @description Shown value `advisory`; other allowed values are not shown (open point abstention-status-values).
             * @example advisory
             */
            abstention_status: string;
        };
        /**
         * @description Reference shape of a noul answer (open point answer-shapes). A yes/no/unknown verdict scored from `instructions` against the context; `confidence` and abstention work as for choice.
         * @example {
         *       "type": "noul",
         *       "verdict": "yes",
         *       "confidence": 0.55,
         *       "probabilities": {
         *         "yes": 0.7,
         *         "no": 0.15,
         *         "unknown": 0.15
         *       },
         *       "abstain": false,
         *       "abstention_status": "advisory"
         *     }
         */
        NoulAnswer: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "noul";
            /** @enum {string|null} */
            verdict: "yes" | "no" | "unknown" | null;
            confidence: number;
            probabilities: {
                yes: number;
                no: number;
                unknown: number;
            };
            abstain: boolean;
            abstention_status: string;
        };
        /**
         * @description Reference shape of a multi answer (open point answer-shapes). Each option's own probability (independent, not summing to 1) and the option ids at or above the threshold, in request order.
         * @example {
         *       "type": "multi",
         *       "selected": [
         *         "refund"
         *       ],
         *       "probabilities": {
         *         "refund": 0.81,
         *         "damaged_item": 0.22,
         *         "late_delivery": 0.4
         *       },
         *       "threshold": 0.5
         *     }
         */
        MultiAnswer: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "multi";
            selected: string[];
            probabilities: {
                [key: string]: number;
            };
            threshold: number;
        };
        /**
         * @description Reference shape of a score answer (open points score-question-fields, answer-shapes). A number in [0, 1] and what it was scored on.
         * @example {
         *       "type": "score",
         *       "score": 0.67,
         *       "basis": "instructions_similarity"
         *     }
         */
        ScoreAnswer: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "score";
            score: number;
            /** @description What the score measures, e.g. the similarity of the context to the instructions. */
            basis: string;
        };
        /**
         * @description Usage is reported as input tokens only; no output-token field exists.
         * @example {
         *       "input_tokens": 41
         *     }
         */
        Usage: {
            input_tokens: number;
        };
        /**
         * @description An uploaded media file. Usable only by the project that uploaded it; its content is never returned by the API.
         * @example {
         *       "id": "asset_9c1d2e3f4a5b6c7d",
         *       "object": "asset",
         *       "mime_type": "image/png",
         *       "size_bytes": 48213,
         *       "sha256": "3f0b8a4c5d7e9f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192",
         *       "created_at": "2026-11-22T09:30:00Z",
         *       "expires_at": "2026-11-23T09:30:00Z"
         *     }
         */
        Asset: {
            id: components["schemas"]["AssetId"];
            /** @constant */
            object: "asset";
            mime_type: components["schemas"]["AssetMimeType"];
            /** Format: int64 */
            size_bytes: number;
            /** @description SHA-256 hash of the file. Its encoding is not shown (open point sha256-encoding); the reference server sends 64 lowercase hex digits. */
            sha256: string;
            /**
             * Format: date-time
             * @description Upload time (ISO 8601).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description After this time the asset cannot be referenced. Default is 24 hours after upload.
             */
            expires_at: string;
        };
        /**
         * @description The twelve accepted MIME types, by family.
         * @example image/png
         * @enum {string}
         */
        AssetMimeType: "image/png" | "image/jpeg" | "image/webp" | "application/pdf" | "application/vnd.openxmlformats-officedocument.wordprocessingml.document" | "text/plain" | "text/markdown" | "text/html" | "audio/wav" | "audio/mpeg" | "audio/flac" | "audio/ogg";
        /**
         * Format: binary
         * @description The raw bytes of the file.
         */
        RawFile: string;
        /**
         * @description The result of deleting an asset.
         * @example {
         *       "id": "asset_9c1d2e3f4a5b6c7d",
         *       "object": "asset",
         *       "deleted": true
         *     }
         */
        DeletedAsset: {
            id: string;
            /** @constant */
            object: "asset";
            /** @constant */
            deleted: true;
        };
        /**
         * @description Reference shape (open point feedback-shape). The decision's request id and, per question id, whether its answer was correct.
         * @example {
         *       "request_id": "req_8f14e45fceea167a",
         *       "answers": {
         *         "topic": {
         *           "correct": true
         *         }
         *       }
         *     }
         */
        FeedbackRequest: {
            request_id: components["schemas"]["RequestId"];
            answers: {
                [key: string]: components["schemas"]["AnswerFeedback"];
            };
            comment?: string;
        };
        /**
         * @description Whether one answer was correct (reference shape, open point feedback-shape).
         * @example {
         *       "correct": false
         *     }
         */
        AnswerFeedback: {
            correct: boolean;
        };
        /**
         * @description Whether one answer was correct, as recorded (reference shape, open point feedback-shape). Unlike the request's AnswerFeedback it is open, as every response object is (seed 9.3).
         * @example {
         *       "correct": true
         *     }
         */
        RecordedAnswerFeedback: {
            correct: boolean;
        };
        /**
         * @description A recorded feedback report (reference shape, open point feedback-shape).
         * @example {
         *       "id": "fb_5d41402abc4b2a76",
         *       "object": "feedback",
         *       "request_id": "req_8f14e45fceea167a",
         *       "answers": {
         *         "topic": {
         *           "correct": true
         *         }
         *       },
         *       "created_at": "2026-11-22T09:31:00Z"
         *     }
         */
        Feedback: {
            id: string;
            /** @constant */
            object: "feedback";
            request_id: components["schemas"]["RequestId"];
            answers: {
                [key: string]: components["schemas"]["RecordedAnswerFeedback"];
            };
            comment?: string;
            /** Format: date-time */
            created_at: string;
        };
        /**
         * @description Reference shape of GET /v1/models (open point models-shape).
         * @example {
         *       "object": "list",
         *       "data": [
         *         {
         *           "id": "svc-one-v1",
         *           "object": "model",
         *           "aliases": [
         *             "svc-one-v0",
         *             "svc-one-v0.3"
         *           ]
         *         }
         *       ]
         *     }
         */
        ModelList: {
            /** @constant */
            object: "list";
            data: components["schemas"]["Model"][];
        };
        /**
         * @description A model and its aliases (reference shape, open point models-shape).
         * @example {
         *       "id": "svc-one-v1",
         *       "object": "model",
         *       "aliases": [
         *         "svc-one-v0",
         *         "svc-one-v0.3"
         *       ]
         *     }
         */
        Model: {
            id: string;
            /** @constant */
            object: "model";
            aliases: string[];
        };
        /**
         * @description Reference body of GET /health (open point service-endpoint-bodies).
         * @example {
         *       "status": "ok"
         *     }
         */
        Health: {
            /** @constant */
            status: "ok";
        };
        /**
         * @description The OpenAPI 3.1 description of the API.
         * @example {
         *       "openapi": "3.1.0",
         *       "info": {
         *         "title": "Decision Service API",
         *         "version": "1.0.0-beta"
         *       },
         *       "paths": {}
         *     }
         */
        OpenApiDocument: {
            openapi: string;
            info: Record<string, never>;
            paths: Record<string, never>;
        };
        /**
         * @description 1 to 128 characters from letters, digits, `.`, `_`, `:` and `-`. Generated ids have the form `req_<hex>`.
         * @example req_8f14e45fceea167a
         * @example checkout-7f3a.retry:2
         */
        RequestId: string;
        /** @description The one body shared by all errors. */
        Error: {
            error: {
                code: components["schemas"]["ErrorCode"];
                /** @description Human-readable text. */
                message: string;
                /** @description The request id, the same as the X-Request-ID header. */
                request_id: string | null;
            };
        };
        /**
         * @description Stable machine-readable error code. `x-codes` gives, for each code, the status the seed
         *     states (null where the seed names the code only) and the condition. The reference
         *     statuses of name-only codes are in the open point name-only-statuses.
         * @example INVALID_REQUEST
         * @enum {string}
         */
        ErrorCode: "INVALID_REQUEST" | "UNSUPPORTED_MODALITY" | "UNAUTHORIZED" | "ASSET_FORBIDDEN" | "ASSET_NOT_FOUND" | "ASSET_EXPIRED" | "ASSET_TOO_LARGE" | "UNSUPPORTED_MIME_TYPE" | "RATE_LIMITED" | "INVALID_OPTIONS" | "PAYLOAD_TOO_LARGE" | "FORBIDDEN" | "SIGNUP_RESTRICTED" | "NOT_FOUND" | "CONFLICT" | "INSUFFICIENT_CREDITS" | "QUOTA_EXCEEDED" | "UPSTREAM_TIMEOUT" | "UPSTREAM_UNAVAILABLE" | "INFERENCE_FAILED" | "INTERNAL_ERROR" | "TOO_MANY_IMAGES" | "TOO_MANY_DOCUMENTS" | "TOO_MANY_AUDIO" | "DOCUMENT_TOO_MANY_PAGES" | "AUDIO_TOO_LONG" | "DECODE_FAILED" | "OCR_FAILED" | "ASR_FAILED" | "VISION_FAILED" | "MULTIMODAL_INFERENCE_FAILED";
    };
    responses: {
        /** @description The API key is missing or invalid. */
        Unauthorized: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The key may not use this operation (condition not shown in the seed; the reference server never answers this). */
        Forbidden: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The project has no credits left (reference status of a name-only code). */
        InsufficientCredits: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is over 256 KiB (reference status of a name-only code). */
        PayloadTooLarge: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body was not sent as application/json (reference choice, open point json-content-type). */
        NotJson: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many requests; retry after the Retry-After delay. Rate limits, quotas and credit accounting are not shown in the seed (open point rate-limits). */
        RateLimited: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The service failed (reference status of a name-only code). */
        InternalError: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A component the service depends on is unavailable (reference status of a name-only code). */
        UpstreamUnavailable: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A component the service depends on did not answer in time (reference status of a name-only code). */
        UpstreamTimeout: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Invalid request. Only a server that rejects a malformed X-Request-ID (open point invalid-caller-request-id) answers this here; the reference server ignores such a header and generates an id. */
        BadRequestHeader: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The asset id in the path does not match the asset id pattern (reference choice, open point malformed-asset-id-in-path). */
        BadAssetId: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The asset belongs to another project. */
        AssetForbidden: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The asset id is unknown (or, as the reference choice, the asset was deleted). */
        AssetNotFound: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The asset has expired (for reading and deleting, the reference choice, open point asset-read-after-expiry). */
        AssetExpired: {
            headers: {
                "X-Request-ID": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
         * @example checkout-7f3a.retry:2
         */
        RequestIdHeader: components["schemas"]["RequestId"];
        /**
         * @description The asset's id.
         * @example asset_9c1d2e3f4a5b6c7d
         */
        AssetIdPath: components["schemas"]["AssetId"];
    };
    requestBodies: never;
    headers: {
        /**
         * @description The request id on every response, errors included; the caller's own when it sent a valid one, otherwise `req_<hex>`. Equal to `error.request_id` in error bodies.
         * @example req_8f14e45fceea167a
         */
        RequestId: components["schemas"]["RequestId"];
        /**
         * @description Seconds to wait before retrying (reference choice, open point rate-limits).
         * @example 2
         */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    decide: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecideRequest"];
            };
        };
        responses: {
            /** @description One answer per question id sent. The success status code is not shown in the seed (open point decide-success-status); 200 is the reference choice. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DecideResponse"];
                };
            };
            /** @description Invalid request, an unsupported modality, invalid options, too many media parts of one kind, or a referenced file that cannot be decoded. */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientCredits"];
            /** @description A referenced asset belongs to another project, or the key may not use this operation. */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A referenced asset id is unknown (or, as the reference choice, was deleted). */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A referenced asset has expired. */
            410: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["NotJson"];
            429: components["responses"]["RateLimited"];
            /** @description The service failed to answer. */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
        };
    };
    submitFeedback: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FeedbackRequest"];
            };
        };
        responses: {
            /** @description The feedback was recorded (reference choice). */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Feedback"];
                };
            };
            /** @description Invalid request, such as a question id the decision did not have. */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No decision of the caller's project has this request id (reference choice). */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Feedback for this question of this decision was already recorded (reference choice). */
            409: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["NotJson"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
        };
    };
    listModels: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The available models (reference shape and status). */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelList"];
                };
            };
            400: components["responses"]["BadRequestHeader"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
        };
    };
    uploadAsset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description The raw file. One of the twelve accepted MIME types. */
        requestBody: {
            content: {
                "image/png": components["schemas"]["RawFile"];
                "image/jpeg": components["schemas"]["RawFile"];
                "image/webp": components["schemas"]["RawFile"];
                "application/pdf": components["schemas"]["RawFile"];
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document": components["schemas"]["RawFile"];
                "text/plain": components["schemas"]["RawFile"];
                "text/markdown": components["schemas"]["RawFile"];
                "text/html": components["schemas"]["RawFile"];
                "audio/wav": components["schemas"]["RawFile"];
                "audio/mpeg": components["schemas"]["RawFile"];
                "audio/flac": components["schemas"]["RawFile"];
                "audio/ogg": components["schemas"]["RawFile"];
            };
        };
        responses: {
            /** @description The asset was stored. */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Asset"];
                };
            };
            /** @description Invalid request, such as an empty body, or a file of the declared type that cannot be decoded (reference status of DECODE_FAILED). */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientCredits"];
            403: components["responses"]["Forbidden"];
            /** @description The file is over the size limit of its family; as reference statuses, a document over 20 pages or audio over 30 s (seed 8 lists those limits with the file sizes). */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The type is not supported, or the content does not match the declared type. */
            415: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
        };
    };
    getAsset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path: {
                /**
                 * @description The asset's id.
                 * @example asset_9c1d2e3f4a5b6c7d
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset's metadata. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Asset"];
                };
            };
            400: components["responses"]["BadAssetId"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["AssetForbidden"];
            404: components["responses"]["AssetNotFound"];
            410: components["responses"]["AssetExpired"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteAsset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path: {
                /**
                 * @description The asset's id.
                 * @example asset_9c1d2e3f4a5b6c7d
                 */
                asset_id: components["parameters"]["AssetIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset was deleted. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedAsset"];
                };
            };
            400: components["responses"]["BadAssetId"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["AssetForbidden"];
            404: components["responses"]["AssetNotFound"];
            410: components["responses"]["AssetExpired"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service is alive. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            400: components["responses"]["BadRequestHeader"];
            500: components["responses"]["InternalError"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The caller's own request id, kept and returned in the X-Request-ID response header. Without it the service generates one of the form `req_<hex>`.
                 * @example checkout-7f3a.retry:2
                 */
                "X-Request-ID"?: components["parameters"]["RequestIdHeader"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            400: components["responses"]["BadRequestHeader"];
            500: components["responses"]["InternalError"];
        };
    };
}
