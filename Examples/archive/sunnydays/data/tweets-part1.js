window.YTD.tweets.part1 = [
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785590123456879016"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "75"
      ],
      "favorite_count": "24",
      "id_str": "1785590123456879016",
      "truncated": false,
      "retweet_count": "8",
      "id": "1785590123456879016",
      "created_at": "Sun Apr 28 22:16:00 +0000 2024",
      "favorited": false,
      "full_text": "Our cat knocked the plant off the shelf &amp; now there's soil everywhere 😩",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785588888888988893"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "73"
      ],
      "favorite_count": "27",
      "id_str": "1785588888888988893",
      "truncated": false,
      "retweet_count": "9",
      "id": "1785588888888988893",
      "created_at": "Sun Apr 28 15:03:00 +0000 2024",
      "favorited": false,
      "full_text": "Tickets for Saturday's concert are sold out. Gutted, really wanted to go.",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785587654321098770"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "39"
      ],
      "favorite_count": "30",
      "id_str": "1785587654321098770",
      "truncated": false,
      "retweet_count": "10",
      "id": "1785587654321098770",
      "created_at": "Sun Apr 28 07:50:00 +0000 2024",
      "favorited": false,
      "full_text": "Weather forecast says rain all weekend.",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1785586419753208647"
          ],
          "editableUntil": "2024-05-01T09:00:00.000Z",
          "editsRemaining": "5",
          "isEditEligible": true
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://example.com\" rel=\"nofollow\">Example Client</a>",
      "entities": {
        "hashtags": [],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "90"
      ],
      "favorite_count": "33",
      "id_str": "1785586419753208647",
      "truncated": false,
      "retweet_count": "11",
      "id": "1785586419753208647",
      "created_at": "Sun Apr 28 00:37:00 +0000 2024",
      "favorited": false,
      "full_text": "Thank you all for 1,000 followers! You make this little corner of the internet wonderful 🎉",
      "lang": "en"
    }
  }
]
